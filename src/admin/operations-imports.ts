// Admin operations for moving in and out with Mastodon's CSV files (`wren import-csv`,
// `wren import-status`, `wren export-csv`). Starting an import only stores it and queues its
// job, so it needs no federation here: the server's job runner resolves the rows.

import { z } from "zod";
import { IMPORT_TYPES } from "../domain/csv-import.ts";
import { exportCsv } from "../services/imports/export-csv.ts";
import { importStatus } from "../services/imports/import-status.ts";
import { startImport } from "../services/imports/start-import.ts";
import type { Operation } from "./operations.ts";

function op<S extends z.ZodType>(definition: Operation<S>): Operation<S> {
  return definition;
}

const importType = z.enum(IMPORT_TYPES);

export const IMPORT_OPERATIONS = {
  "import.start": op({
    args: z.object({
      username: z.string().min(1),
      type: importType,
      text: z.string(),
      overwrite: z.boolean().default(false),
    }),
    async run(ctx, args) {
      const mode = args.overwrite ? "overwrite" : "merge";
      const record = await startImport(ctx, args.username, args.type, mode, args.text);
      return { id: record.id, rows: record.progress.length };
    },
  }),
  "import.status": op({
    args: z.object({ id: z.string().regex(/^[0-9]{1,25}$/) }),
    run: (ctx, args) => importStatus(ctx, args.id),
  }),
  "export.csv": op({
    args: z.object({ username: z.string().min(1), type: importType }),
    run: (ctx, args) => exportCsv(ctx, args.username, args.type),
  }),
};
