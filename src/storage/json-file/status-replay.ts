// Start-up replay of the status journals' bytes (ADR 0065). A status file is renamed into place
// without fsync once its journal line (with the file's bytes) is durable; after a power cut the
// file may be missing, empty, cut short or an older version. Before any status file is read,
// every file whose last journal line holds bytes is compared with them and, where it differs,
// written again durably; a file whose last line says it must not exist is removed. Files found
// right are counted among those to sync before a snapshot drops the journal (after a SIGKILL
// they may still sit in the page cache only). Lines of the older format (names only) are left to
// the snapshot's reread, as before.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { getLogger } from "@logtape/logtape";
import { type DurableWriter, ignoreCode } from "./durable-writer.ts";
import { forEachLimit } from "./parallel.ts";
import { readJournalEntries } from "./status-journal.ts";

const logger = getLogger(["wren", "storage"]);

/** Where the status files under `dir` differ from the last word of the journals on them. */
export interface JournalDifferences {
  /** Files (`<account_id>/<id>.json`) whose bytes the journal holds otherwise (null: none). */
  differ: Map<string, string | null>;
  /** Files that hold their journal line's bytes already. */
  same: string[];
}

/** Compares the status files under `dir` with the journals numbered `from` or more. */
export async function journalDifferences(
  root: string,
  dir: string,
  from: number,
): Promise<JournalDifferences> {
  const entries = await readJournalEntries(root, from);
  const found: JournalDifferences = { differ: new Map(), same: [] };
  await forEachLimit([...entries], 64, async ([name, bytes]) => {
    if (bytes === undefined) return;
    const file = `${name}.json`;
    const now = await readFile(join(dir, file), "utf8").catch(ignoreCode("ENOENT"));
    if (bytes === null) {
      // A removal's file went durably (the writer's remove syncs its folder).
      if (now !== undefined) found.differ.set(file, null);
    } else if (now === bytes) found.same.push(file);
    else found.differ.set(file, bytes);
  });
  return found;
}

/** Restores from the journals numbered `from` or more the status files under `dir`. */
export async function restoreFromJournals(
  root: string,
  dir: string,
  from: number,
  writer: DurableWriter,
): Promise<number> {
  const { differ, same } = await journalDifferences(root, dir, from);
  for (const file of same) writer.noteDeferred(join(dir, file));
  await forEachLimit([...differ], 64, async ([file, bytes]) => {
    const path = join(dir, file);
    await (bytes === null ? writer.remove(path) : writer.write(path, bytes));
  });
  if (differ.size > 0) {
    logger.warn(
      "Restored {count} status file(s) from the status journal: a crash or power cut came " +
        "before the system wrote them to disk",
      { count: differ.size },
    );
  }
  return differ.size;
}
