// `wren media prune`: removes uploads that were never attached to a post, as the hourly cleanup
// does, but now and with any age (e.g. after raising storage costs, or before a backup).

import { type Command, EXIT_FAILURE, EXIT_OK, UsageError } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";

const DEFAULT_HOURS = 24;

function parseHours(value: string | boolean | undefined): number {
  if (value === undefined) return DEFAULT_HOURS;
  const text = String(value).trim();
  const hours = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(hours) || hours > 24 * 3660) {
    throw new UsageError(
      `--older-than takes a number of hours (0 or more), got "${String(value)}"`,
      "wren media prune --help",
    );
  }
  return hours;
}

export const mediaPrune: Command = {
  path: ["media", "prune"],
  summary: "Remove uploaded media that were never attached to a post.",
  positionals: [],
  options: {
    "older-than": {
      type: "string",
      valueName: "HOURS",
      description: `Only uploads made more than HOURS ago (default ${DEFAULT_HOURS})`,
    },
  },
  details: `Files and records both go. The server does the same every hour for uploads older
than a day; uploads younger than that may belong to a post someone is still writing, so
--older-than 0 is best kept for a server nobody is using.

Example:
  wren media prune --older-than 48`,
  async run({ options }) {
    const hours = parseHours(options["older-than"]);
    const config = await commandConfig();
    const summary = (await operate(config, "media.prune", { olderThanHours: hours })) as {
      removed: number;
      files: number;
      failed: number;
    };
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    process.stdout.write(
      `Removed ${plural(summary.removed, "unattached upload")} (${plural(summary.files, "file")}) older than ${hours} hours.\n`,
    );
    if (summary.failed > 0) {
      process.stderr.write(
        `${plural(summary.failed, "upload")} could not be removed (the file host failed; see the log). Try again later.\n`,
      );
      return EXIT_FAILURE;
    }
    return EXIT_OK;
  },
};
