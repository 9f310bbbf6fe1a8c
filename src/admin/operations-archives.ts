// Admin operations for account archives (`wren archive`): start one (queued like the settings
// page's), build it at once in the process that runs the operation, follow its progress and
// read the finished zip in chunks small enough for the admin socket's messages.

import { z } from "zod";
import { conflict } from "../domain/errors.ts";
import { requireArchive } from "../services/archives/archive-records.ts";
import { archiveStream, buildArchive } from "../services/archives/build-archive.ts";
import { requestArchive } from "../services/archives/request-archive.ts";
import { localAccountNamed } from "../services/imports/local-account.ts";
import type { Operation } from "./operations.ts";

function op<S extends z.ZodType>(definition: Operation<S>): Operation<S> {
  return definition;
}

/** Bytes per archive.read: base64 of it stays well under the socket's 512 KiB messages. */
export const ARCHIVE_CHUNK_BYTES = 256 * 1024;

const which = z.object({ username: z.string().min(1), id: z.string().regex(/^[0-9]{1,25}$/) });

export const ARCHIVE_OPERATIONS = {
  "archive.start": op({
    args: z.object({ username: z.string().min(1) }),
    async run(ctx, args) {
      const account = await localAccountNamed(ctx, args.username);
      const archive = await requestArchive(ctx, account.id, { byOperator: true });
      return { id: archive.id };
    },
  }),
  "archive.build": op({
    args: which,
    // The actor and activities are made by the federation's dispatchers and serializers.
    federation: true,
    async run(ctx, args, hooks) {
      const account = await localAccountNamed(ctx, args.username);
      const built = await buildArchive(ctx, account.id, args.id, {
        onlyWaiting: true,
        ...(hooks?.progress ? { onProgress: hooks.progress } : {}),
      });
      if (built?.state === "ready" && hooks?.output) {
        // Chunk by chunk into the command's file: the archive may be larger than memory.
        const file = await archiveStream(ctx, built);
        if (file) for await (const chunk of file.body) await hooks.output(chunk);
        return { ...built, written: file !== null };
      }
      return { ...built, written: false };
    },
  }),
  "archive.status": op({
    args: which,
    async run(ctx, args) {
      const account = await localAccountNamed(ctx, args.username);
      return requireArchive(ctx, account.id, args.id);
    },
  }),
  "archive.read": op({
    args: which.extend({ offset: z.number().int().min(0) }),
    async run(ctx, args) {
      const account = await localAccountNamed(ctx, args.username);
      const archive = await requireArchive(ctx, account.id, args.id);
      // Only the chunk asked for is read from the file host.
      const file = await archiveStream(ctx, archive, {
        start: args.offset,
        length: ARCHIVE_CHUNK_BYTES,
      });
      if (!file) throw conflict("The archive is not ready");
      const chunks: Uint8Array[] = [];
      for await (const chunk of file.body) chunks.push(chunk);
      return { size: file.size, data: Buffer.concat(chunks).toString("base64") };
    },
  }),
};
