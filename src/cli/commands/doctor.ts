// `wren doctor`: checks the whole data directory while no server runs on it, and lists each
// problem (damaged files, orphans, counters, indexes, file modes) on stdout; exits 1 if any
// remains. With --fix, damaged files are moved to the quarantine folder and modes made private.

import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type Command, EXIT_FAILURE, EXIT_OK } from "../command.ts";
import { progressOnStderr } from "../progress.ts";
import { commandConfig } from "../setup.ts";

export const doctorCommand: Command = {
  path: ["doctor"],
  summary: "Check every file of the data directory and report problems (stop the server first).",
  positionals: [],
  options: {
    fix: {
      type: "boolean",
      description: "Move damaged files to <data>/quarantine/ and make modes private again",
    },
  },
  details: `Reads and parses every record file as the server would, then checks what ties
records together (orphans, poll counters, unique usernames and ids) and the mode and owner of
every file (0600) and folder (0700). Each problem is one line on stdout:
  <kind>  <path>: <what is wrong>[ -> <what --fix did>]
Exit status 0: no problem; 1: problems remain (or the check could not run).

Example:
  wren doctor && wren serve`,
  async run({ options }) {
    const config = await commandConfig();
    if (config.storage !== "json-file") {
      process.stderr.write("wren: doctor checks the json-file data directory only\n");
      return EXIT_FAILURE;
    }
    const root = resolve(config.dataDir);
    if (!existsSync(root)) {
      process.stderr.write(`wren: there is no data directory at ${root}\n`);
      return EXIT_FAILURE;
    }
    // Loaded on demand, like the other commands' storage.
    const { readLockHolder } = await import("../../storage/json-file/lock.ts");
    const holder = readLockHolder(root);
    if (holder !== null) {
      process.stderr.write(
        `wren: the data directory ${root} is in use by process ${holder}. Stop the server ` +
          "first: the check must see files that nothing changes meanwhile. (A running server " +
          "already moves aside any damaged file it reads, and logs it.)\n",
      );
      return EXIT_FAILURE;
    }
    const { inspectDataDirectory } = await import(
      "../../storage/json-file/inspect/inspect-data-directory.ts"
    );
    const progress = progressOnStderr("Checking");
    const fix = options.fix === true;
    const result = await inspectDataDirectory(root, {
      fix,
      progress: (done, total) => progress.update(done, total),
    });
    progress.finish(result.files, result.files);

    for (const p of result.problems) {
      process.stdout.write(
        `${p.kind}\t${p.path}: ${p.message}${p.fixed ? ` -> ${p.fixed}` : ""}\n`,
      );
    }
    if (result.leftovers.length > 0) {
      process.stderr.write(
        `${result.leftovers.length} temporary files of interrupted writes (never acknowledged; the next start removes them), e.g. ${result.leftovers[0]}\n`,
      );
    }
    if (result.restorable.length > 0) {
      process.stderr.write(
        `${result.restorable.length} status files differ from their last line in the status journal (a crash or power cut came before the system wrote them; checked as the journal has them, and the next start writes them again), e.g. ${result.restorable[0]}\n`,
      );
    }
    const open = result.problems.filter((p) => p.fixed === undefined).length;
    const fixed = result.problems.length - open;
    process.stderr.write(
      result.problems.length === 0
        ? `No problems in ${result.files} record files of ${root}.\n`
        : `${result.problems.length} problems in ${result.files} record files of ${root}` +
            `${fix ? `: ${fixed} fixed, ${open} left` : "; `wren doctor --fix` moves damaged files aside and fixes modes"}.\n`,
    );
    return open === 0 ? EXIT_OK : EXIT_FAILURE;
  },
};
