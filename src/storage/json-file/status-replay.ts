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

/** Restores from the journals numbered `from` or more the status files under `dir`. */
export async function restoreFromJournals(
  root: string,
  dir: string,
  from: number,
  writer: DurableWriter,
): Promise<number> {
  const entries = await readJournalEntries(root, from);
  let restored = 0;
  await forEachLimit([...entries], 64, async ([name, bytes]) => {
    if (bytes === undefined) return;
    const path = join(dir, `${name}.json`);
    const now = await readFile(path, "utf8").catch(ignoreCode("ENOENT"));
    if (bytes === null) {
      if (now === undefined) return;
      await writer.remove(path);
    } else if (now === bytes) {
      writer.noteDeferred(path);
      return;
    } else {
      await writer.write(path, bytes);
    }
    restored++;
  });
  if (restored > 0) {
    logger.warn(
      "Restored {count} status file(s) from the status journal: a crash or power cut came " +
        "before the system wrote them to disk",
      { count: restored },
    );
  }
  return restored;
}
