// Telling the streaming API about a write. Best effort, as Mastodon's Redis publish is: the write
// stands and is answered whatever happens here, and a lost signal costs a live update that the
// client's next reload shows anyway, so a failure is logged rather than retried (a retried
// listener would replay the event to every connection).

import { getLogger } from "@logtape/logtape";
import type { StreamSignal } from "../../domain/stream-signal.ts";
import type { ServiceContext } from "../context.ts";

const logger = getLogger(["wren", "streaming"]);

export async function signalStreams(ctx: ServiceContext, signal: StreamSignal): Promise<void> {
  try {
    await ctx.storage.broadcast.publish(signal);
  } catch (error) {
    logger.warn("Could not signal {kind} to the streaming API: {error}", {
      kind: signal.kind,
      error,
    });
  }
}
