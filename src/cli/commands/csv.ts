// `wren import-csv`, `wren import-status` and `wren export-csv`: moving a user in and out with
// Mastodon's CSV files (Settings → Import and export on Mastodon). The import is queued: the
// server's job runner resolves its rows (a command run without a server leaves them for the next
// start), and `import-status` shows how far it went and which rows failed, and why.

import { writeFile } from "node:fs/promises";
import { IMPORT_FILE_BYTES, IMPORT_TYPES, isImportType } from "../../domain/csv-import.ts";
import type { ImportStatus } from "../../services/imports/import-status.ts";
import { type Command, EXIT_OK, UsageError } from "../command.ts";
import { operate } from "../operate.ts";
import { readBounded } from "../read-bounded.ts";
import { commandConfig } from "../setup.ts";

const TYPES = IMPORT_TYPES.join(", ");

function importType(value: string | undefined, help: string) {
  if (value === undefined || !isImportType(value)) {
    throw new UsageError(`TYPE must be one of ${TYPES}.`, help);
  }
  return value;
}

export const importCsv: Command = {
  path: ["import-csv"],
  summary: "Import a Mastodon CSV export (follows, lists, blocks…) into a local account.",
  positionals: ["USERNAME", "TYPE", "FILE"],
  options: {
    overwrite: {
      type: "boolean",
      description: "Also undo what the account has of TYPE but the file does not list",
    },
  },
  details: `TYPE is one of ${TYPES}: the files Mastodon's Settings → Import and export →
Data export gives (follows.csv, lists.csv, blocks.csv, mutes.csv, domain_blocks.csv,
bookmarks.csv), or that \`wren export-csv\` writes. Files with or without their header line are
taken, as on Mastodon; a file is at most ${IMPORT_FILE_BYTES / 1024} KiB.

The file is checked and queued at once, and its import id printed; the server then resolves
each row's account (WebFinger) or status on its server and follows, blocks, mutes, lists or
bookmarks it, one row at a time. Rows that cannot be applied (an account that no longer exists)
are listed by \`wren import-status ID\` with the reason. Without a running server, the rows
wait for the next \`wren serve\`.

Example:
  wren import-csv alice following following_accounts.csv
  wren import-csv alice blocks blocked_accounts.csv --overwrite
  wren import-status 113456789012345678`,
  async run({ positionals, options }) {
    const help = "wren import-csv --help";
    const type = importType(positionals.TYPE, help);
    const bytes = await readBounded(positionals.FILE as string, IMPORT_FILE_BYTES + 1, help);
    if (bytes.length > IMPORT_FILE_BYTES) {
      throw new UsageError(`The file is larger than ${IMPORT_FILE_BYTES / 1024} KiB.`, help);
    }
    const config = await commandConfig();
    const started = (await operate(config, "import.start", {
      username: positionals.USERNAME,
      type,
      text: bytes.toString("utf8"),
      overwrite: options.overwrite === true,
    })) as { id: string; rows: number };
    process.stdout.write(`${started.id}\n`);
    process.stderr.write(
      `Queued ${started.rows} rows; see their progress with \`wren import-status ${started.id}\`.\n`,
    );
    return EXIT_OK;
  },
};

export const importStatusCommand: Command = {
  path: ["import-status"],
  summary: "Show how far a CSV import went and which rows failed, and why.",
  positionals: ["ID"],
  options: {},
  details: `Prints the import's account, type and mode, the rows processed and failed out of the
total, and one tab-separated line per failed row: its number in the file, what it named and the
reason.`,
  async run({ positionals }) {
    const id = positionals.ID as string;
    if (!/^[0-9]{1,25}$/.test(id)) {
      throw new UsageError(`${id} is not an import id.`, "wren import-status --help");
    }
    const config = await commandConfig();
    const s = (await operate(config, "import.status", { id })) as ImportStatus;
    const state = s.finishedAt === null ? "in progress" : `finished at ${s.finishedAt}`;
    const lines = [
      `Import ${s.id}: ${s.type} (${s.mode}) for ${s.account}, created ${s.createdAt}, ${state}`,
      `Processed ${s.processed} of ${s.total} rows, ${s.failed} failed`,
      ...s.failures.map((f) => `${f.row}\t${f.value}\t${f.reason}`),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    return EXIT_OK;
  },
};

export const exportCsvCommand: Command = {
  path: ["export-csv"],
  summary: "Write a local account's follows, lists, blocks… as Mastodon's CSV export.",
  positionals: ["USERNAME", "TYPE"],
  options: {
    output: {
      type: "string",
      valueName: "FILE",
      description: "Write to FILE instead of standard output",
    },
  },
  details: `TYPE is one of ${TYPES}. The file is the one Mastodon's Data export gives for it
(same columns and header lines), so Mastodon, or \`wren import-csv\`, imports it.

Example:
  wren export-csv alice following --output following_accounts.csv`,
  async run({ positionals, options }) {
    const type = importType(positionals.TYPE, "wren export-csv --help");
    const config = await commandConfig();
    const text = (await operate(config, "export.csv", {
      username: positionals.USERNAME,
      type,
    })) as string;
    if (typeof options.output === "string") await writeFile(options.output, text);
    else process.stdout.write(text);
    return EXIT_OK;
  },
};
