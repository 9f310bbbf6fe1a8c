// `wren export FILE` and `wren import FILE`: move a whole instance between backends (json-file ⇄
// PostgreSQL) or machines. The file is JSON Lines: a header, then one record per line in
// Storage.dump's order, as canonical JSON, so exporting the same records from either backend
// gives the same bytes. Ids, keys, tokens, follows and remote actors move as they are, so other
// servers go on federating with the instance; media files stay where the file host keeps them.

import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { createInterface } from "node:readline";
import { AppError } from "../../domain/errors.ts";
import {
  canonicalJson,
  type DumpedRecord,
  RECORD_KINDS,
  type RecordKind,
} from "../../domain/record-dump.ts";
import type { Storage } from "../../storage/ports.ts";
import { restoreRecord } from "../../storage/restore-record.ts";
import { openStorage } from "../../wiring/storage.ts";
import { type Command, EXIT_OK } from "../command.ts";
import { progressOnStderr } from "../progress.ts";
import { commandConfig } from "../setup.ts";

const HEADER = { format: "wren-instance", version: 1 } as const;
/** Puts in flight at once while importing one kind (group commits make them cheap together). */
const IMPORT_WINDOW = 64;

async function openConfiguredStorage(): Promise<Storage> {
  const config = await commandConfig();
  return openStorage(config);
}

export const exportCommand: Command = {
  path: ["export"],
  summary: "Write every record of this instance to FILE (to import elsewhere).",
  positionals: ["FILE"],
  options: {},
  details: `Reads the storage WREN_STORAGE names (the data directory or the database) and writes
every account, status, follow, token, key and queued job to FILE. Media files are not in it:
they stay with the file host (the data directory's media folder or the S3 bucket).

With the json-file backend, stop the server first (the export takes the data directory's lock).
On PostgreSQL the export may run beside the server, but writes made meanwhile may be missing.

Example (moving to PostgreSQL):
  wren export instance.jsonl
  WREN_STORAGE=postgres WREN_DATABASE_URL=postgres://… wren db migrate
  WREN_STORAGE=postgres WREN_DATABASE_URL=postgres://… wren import instance.jsonl`,
  async run({ positionals }) {
    const file = positionals.FILE as string;
    const storage = await openConfiguredStorage();
    const partial = `${file}.partial`;
    const progress = progressOnStderr("Exporting", process.stderr, "records");
    let count = 0;
    try {
      const out = createWriteStream(partial, { mode: 0o600 });
      const write = async (line: string) => {
        if (!out.write(`${line}\n`)) await once(out, "drain");
      };
      await write(JSON.stringify(HEADER));
      for await (const dumped of storage.dump()) {
        await write(canonicalJson(dumped));
        progress.update(++count, -1);
      }
      out.end();
      await once(out, "close");
      await rename(partial, file);
      progress.finish(count, -1);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    } finally {
      await storage.close();
    }
    process.stdout.write(`Exported ${count} records to ${file}.\n`);
    return EXIT_OK;
  },
};

function parseLine(text: string, lineNumber: number): DumpedRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError(400, `line ${lineNumber} is not JSON`);
  }
  const { kind, record } = (parsed ?? {}) as { kind?: unknown; record?: unknown };
  if (!RECORD_KINDS.includes(kind as RecordKind) || typeof record !== "object" || !record) {
    throw new AppError(400, `line ${lineNumber} is not a Wren record`);
  }
  return { kind: kind as RecordKind, record };
}

async function assertEmpty(storage: Storage): Promise<void> {
  const [local, domains] = await Promise.all([
    storage.accounts.countLocal(),
    storage.accounts.domains(),
  ]);
  if (local > 0 || domains.length > 0) {
    throw new AppError(
      409,
      "the target storage already holds accounts: import only into an empty data directory or database",
    );
  }
}

export const importCommand: Command = {
  path: ["import"],
  summary: "Load an instance written by `wren export` into an empty storage.",
  positionals: ["FILE"],
  options: {},
  details: `Writes every record of FILE into the storage WREN_STORAGE names, which must be empty
(a new data directory, or a database just created with \`wren db migrate\`). Stop the server
that used the old storage before exporting, and start the new one only after the import.

Example:
  WREN_STORAGE=postgres WREN_DATABASE_URL=postgres://… wren import instance.jsonl`,
  async run({ positionals }) {
    const file = positionals.FILE as string;
    const storage = await openConfiguredStorage();
    const progress = progressOnStderr("Importing", process.stderr, "records");
    let count = 0;
    try {
      await assertEmpty(storage);
      const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
      let lineNumber = 0;
      let inFlight: Promise<void>[] = [];
      let currentKind: RecordKind | undefined;
      for await (const text of lines) {
        lineNumber++;
        if (lineNumber === 1) {
          const header = JSON.parse(text) as { format?: string; version?: number };
          if (header.format !== HEADER.format || header.version !== HEADER.version) {
            throw new AppError(400, `${file} is not an export of this Wren (wren export)`);
          }
          continue;
        }
        if (text.trim() === "") continue;
        const dumped = parseLine(text, lineNumber);
        // One kind at a time: later kinds may refer to earlier ones (a status to its account).
        if (dumped.kind !== currentKind || inFlight.length >= IMPORT_WINDOW) {
          await Promise.all(inFlight);
          inFlight = [];
          currentKind = dumped.kind;
        }
        inFlight.push(restoreRecord(storage, dumped));
        progress.update(++count, -1);
      }
      await Promise.all(inFlight);
      if (lineNumber === 0) throw new AppError(400, `${file} is empty`);
      progress.finish(count, -1);
    } finally {
      await storage.close();
    }
    process.stdout.write(`Imported ${count} records from ${file}.\n`);
    return EXIT_OK;
  },
};
