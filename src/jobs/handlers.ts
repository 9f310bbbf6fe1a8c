// Every job type Wren runs, wired to the use case that does the work. Job handlers are thin:
// they decode the payload and call a service.

import type { ServiceContext } from "../services/context.ts";
import { POLL_EXPIRE_JOB } from "../services/polls/create-poll.ts";
import { expirePoll } from "../services/polls/expire-poll.ts";
import type { JobRunner } from "./runner.ts";

export function registerJobHandlers(runner: JobRunner, ctx: ServiceContext): void {
  runner.register(POLL_EXPIRE_JOB, async (payload) => {
    // A payload without a poll id can never succeed: nothing to do rather than retrying.
    if (typeof payload.pollId === "string") await expirePoll(ctx, payload.pollId);
  });
}
