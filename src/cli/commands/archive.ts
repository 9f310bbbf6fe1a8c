// `wren archive USERNAME [--out FILE]`: the account's archive (Mastodon's "Request your
// archive"), written to a zip file. With a server running, the archive is queued there and
// built by its job runner, the command following the progress and then reading the zip through
// the admin socket; without one, the command builds it itself.

import { open, rm } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import type { AccountArchive } from "../../services/archives/archive-records.ts";
import { type Command, EXIT_OK } from "../command.ts";
import { operate, serverHolds } from "../operate.ts";
import { progressOnStderr } from "../progress.ts";
import { commandConfig } from "../setup.ts";

const POLL_MS = 500;

export const archiveCommand: Command = {
  path: ["archive"],
  summary: "Write a local account's archive (posts, likes, bookmarks, media) to a zip file.",
  positionals: ["USERNAME"],
  options: {
    out: {
      type: "string",
      valueName: "FILE",
      description: "Where to write the zip (default: archive-USERNAME-DATE.zip here)",
    },
  },
  details: `The archive has the layout of Mastodon's: actor.json (the profile, with avatar and
header files beside it), outbox.json (every post and boost of the account as ActivityPub Create
and Announce activities), likes.json, bookmarks.json, and media_attachments/ with the files of
the posts' attachments. The owner can also request it from /settings/export; it stays there
for a week.

Example:
  wren archive alice --out alice.zip`,
  async run({ positionals, options }) {
    const username = positionals.USERNAME as string;
    const config = await commandConfig();
    const day = new Date().toISOString().slice(0, 10);
    const out = typeof options.out === "string" ? options.out : `archive-${username}-${day}.zip`;
    const file = await open(out, "w");
    let complete = false;
    try {
      const { id } = (await operate(config, "archive.start", { username })) as { id: string };
      const bar = progressOnStderr(`Archive ${id}`, process.stderr, "items");
      let archive: AccountArchive & { written?: boolean };
      if (!serverHolds(config)) {
        // No server here (or a database shared with workers): build it now, unless a worker
        // has taken it first.
        archive = (await operate(
          config,
          "archive.build",
          { username, id },
          {
            progress: (done, total) => bar.update(done, total),
            output: async (bytes) => {
              await file.write(bytes);
            },
          },
        )) as AccountArchive & { written: boolean };
      } else {
        archive = (await operate(config, "archive.status", { username, id })) as AccountArchive;
      }
      while (archive.state === "waiting" || archive.state === "building") {
        bar.update(archive.done, archive.total);
        await sleep(POLL_MS);
        archive = (await operate(config, "archive.status", { username, id })) as AccountArchive;
      }
      bar.finish(archive.done, archive.total);
      if (archive.state === "failed") throw new Error(`The archive failed: ${archive.error}`);
      if (!archive.written) {
        let offset = 0;
        for (;;) {
          const chunk = (await operate(config, "archive.read", { username, id, offset })) as {
            size: number;
            data: string;
          };
          const bytes = Buffer.from(chunk.data, "base64");
          await file.write(bytes);
          offset += bytes.length;
          if (bytes.length === 0 || offset >= chunk.size) break;
        }
      }
      complete = true;
    } finally {
      await file.close();
      // No half-written archive left behind.
      if (!complete) await rm(out, { force: true });
    }
    process.stderr.write(`Wrote ${out}\n`);
    return EXIT_OK;
  },
};
