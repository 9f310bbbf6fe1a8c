// Small federation results for the bench report's tests (no measurement behind them).

import type { FanoutResult } from "../../bench/scenarios/fanout.ts";
import type { InboxResult } from "../../bench/scenarios/inbox.ts";

export const fanout: FanoutResult = {
  servers: 10,
  followers: 100,
  seconds: 1,
  firstSeconds: 0.1,
  rounds: [1],
  signSeconds: 0.5,
  ratio: 0.5,
};

/** An inbox run of 2,000 activities with the given rates (the verify loop at 1,200/s). */
export const inbox = (acceptedPerSecond: number, processedPerSecond: number): InboxResult => ({
  activities: 2_000,
  senders: 200,
  concurrency: 50,
  acceptedPerSecond,
  processedPerSecond,
  verifiedPerSecond: 1_200,
  ratio: processedPerSecond / 1_200,
  perRound: [],
});
