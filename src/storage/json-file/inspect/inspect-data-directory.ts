// `wren doctor` for the json-file backend: checks a whole data directory that no server holds.
// Every record file is parsed by the very code the server loads it with (the data directory is
// opened in inspection mode, see OpenOptions.inspect), then the records are checked against each
// other (record-facts.ts) and every file's mode and owner (walk-data-directory.ts). With `fix`,
// damaged files are moved to the quarantine folder, as the server does, and modes are made
// private again; orphans and counters are only reported (the records themselves are sound).

import { chmod } from "node:fs/promises";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../../private-modes.ts";
import { openJsonFileStorage } from "../index.ts";
import { quarantineFile } from "../quarantine.ts";
import { type Problem, RecordFacts } from "./record-facts.ts";
import { type ModeProblem, walkDataDirectory } from "./walk-data-directory.ts";

export type { Problem } from "./record-facts.ts";

export interface InspectOptions {
  /** Move damaged files aside and make modes private. */
  fix?: boolean;
  /** Called as files are read: `done` of `total` (total is known after the first pass). */
  progress?(done: number, total: number): void;
}

export interface Inspection {
  /** Record files read. */
  files: number;
  problems: Problem[];
  /** Temporary files of interrupted writes (not a problem: the next start removes them). */
  leftovers: string[];
  /**
   * Status files a crash or power cut left behind their journal line (not a problem: the next
   * start writes them again from the journal, and the inspection read them as it will).
   */
  restorable: string[];
}

export async function inspectDataDirectory(
  root: string,
  options: InspectOptions = {},
): Promise<Inspection> {
  const walk = await walkDataDirectory(root);
  const total = walk.jsonFiles;
  let done = 0;
  const tick = () => options.progress?.(++done, total);
  const facts = new RecordFacts(root);
  const problems: Problem[] = [];
  const restorable: string[] = [];
  const storage = await openJsonFileStorage(root, {
    inspect: {
      async damaged(dataRoot, path, reason) {
        tick();
        const problem: Problem = { kind: "damaged", path, message: reason };
        if (options.fix) {
          const moved = await quarantineFile(dataRoot, path, reason);
          if (moved !== undefined) problem.fixed = `moved to ${moved}`;
        }
        problems.push(problem);
      },
      loaded(folder, file, record) {
        tick();
        facts.note(folder, file, record);
      },
      restorable(path) {
        restorable.push(path);
      },
    },
  });
  await storage.close();
  problems.push(...facts.check());
  for (const found of walk.modeProblems) problems.push(await modeProblem(found, options.fix));
  return { files: done, problems, leftovers: walk.leftovers, restorable };
}

async function modeProblem(found: ModeProblem, fix = false): Promise<Problem> {
  const octal = found.mode.toString(8).padStart(4, "0");
  const wanted = found.isDirectory ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
  if (found.ownerUid !== undefined) {
    return {
      kind: "mode",
      path: found.path,
      message:
        `owned by user ${found.ownerUid}, not by the user running this check ` +
        `(${process.getuid?.()}): the server must run as the user that owns its data`,
    };
  }
  const problem: Problem = {
    kind: "mode",
    path: found.path,
    message: `mode ${octal}, readable by other users (Wren keeps ${wanted.toString(8).padStart(4, "0")})`,
  };
  if (fix) {
    try {
      await chmod(found.path, wanted);
      problem.fixed = `mode set to ${wanted.toString(8).padStart(4, "0")}`;
    } catch (error) {
      problem.message += ` (could not change it: ${(error as NodeJS.ErrnoException).code})`;
    }
  }
  return problem;
}
