// The records the crash test's writer puts, derived from their ids alone, so the test can
// recompute exactly what each acknowledged write must have left on disk.

import type { Account } from "../../../domain/account.ts";
import type { Status } from "../../../domain/status.ts";
import { makeAccount, makeStatus } from "../../contract/fixtures.ts";

/** One account rewritten again and again with a growing version in its display name. */
export const COUNTER_ID = "1";

export function crashAccount(id: string): Account {
  return makeAccount({ id, username: `u${id}`, note: "x".repeat(2000) });
}

export function counterAccount(version: number): Account {
  return makeAccount({ id: COUNTER_ID, username: "counter", displayName: String(version) });
}

/** Statuses spread over three owner accounts, so several status folders are written at once. */
export function crashStatus(id: string, deleted = false): Status {
  const accountId = String(2 + Number(BigInt(id) % 3n));
  return makeStatus({
    id,
    accountId,
    text: "y".repeat(1000),
    deleted,
    deletedAt: deleted ? "2025-06-01T00:00:00.000Z" : null,
  });
}
