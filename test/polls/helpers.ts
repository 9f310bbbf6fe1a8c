// Shared set-up of the poll tests: a clock the test moves by hand, posting a poll through the
// real endpoint, and voting.

import type { Clock } from "../../src/domain/clock.ts";
import type { TestUser } from "../helpers/accounts.ts";
import type { TestServer } from "../helpers/server.ts";
import { call, type Json, post } from "../statuses/helpers.ts";

export interface MovableClock extends Clock {
  advance(ms: number): void;
}

export function movableClock(start = "2030-01-01T00:00:00.000Z"): MovableClock {
  let now = Date.parse(start);
  return {
    now: () => new Date(now),
    advance(ms) {
      now += ms;
    },
  };
}

export const MINUTE = 60_000;

/** Posts a status with a poll (JSON body) and returns the Status entity. */
export function postPoll(
  server: TestServer,
  user: TestUser,
  poll: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<Json> {
  return post(server, user, { status: "Which one?", poll, ...extra });
}

export function vote(
  server: TestServer,
  user: TestUser,
  pollId: string,
  choices: unknown,
  expected = 200,
): Promise<Json> {
  return call(
    server,
    "POST",
    `/api/v1/polls/${pollId}/votes`,
    { token: user.token, json: { choices } },
    expected,
  );
}

export function getPoll(
  server: TestServer,
  user: TestUser | null,
  pollId: string,
  expected = 200,
): Promise<Json> {
  return call(server, "GET", `/api/v1/polls/${pollId}`, { token: user?.token }, expected);
}
