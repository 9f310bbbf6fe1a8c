// Admin operations on media: `wren media prune` removes unattached uploads now, with an age of
// the operator's choosing (the scheduled cleanup uses a day).

import { z } from "zod";
import type { ServiceContext } from "../services/context.ts";
import { pruneUnattachedMedia } from "../services/media/prune-unattached.ts";
import type { Operation } from "./operations.ts";

function op<S extends z.ZodType>(definition: Operation<S>): Operation<S> {
  return definition;
}

export const MEDIA_OPERATIONS = {
  "media.prune": op({
    // Up to ten years: beyond that nothing is old enough, and the cutoff would leave the epoch.
    args: z.object({
      olderThanHours: z
        .number()
        .min(0)
        .max(24 * 3660),
    }),
    async run(ctx: ServiceContext, args) {
      return pruneUnattachedMedia(ctx, args.olderThanHours * 3600_000);
    },
  }),
};
