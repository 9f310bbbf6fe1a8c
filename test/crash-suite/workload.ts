// The crash suite's clients: one per user, each writing as fast as it can (statuses with and
// without polls, edits, deletes, favourites, follows, votes) until the server dies, recording
// every acknowledged write in the ledger. Posts carry an Idempotency-Key, as the apps send; a
// post the kill cut off is kept to be retried after the restart (retries.ts). Each client changes only its own pairs and its own
// statuses, one request at a time, so the ledger's facts never race each other.

import type { SeededUser } from "../helpers/wren-process.ts";
import { type Ledger, pairKey, settle } from "./ledger.ts";

export interface Random {
  next(): number;
}

/** A small seeded generator (mulberry32), so a failing run can be replayed with its seed. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return {
    next() {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

function pick<T>(random: Random, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(random.next() * items.length)];
}

/** A write's outcome: answered (with its status and body) or cut off by the kill. */
type Outcome = { answered: true; status: number; body: unknown } | { answered: false };

export interface Workload {
  /** Resolves once the first write is acknowledged (so a kill lands mid-traffic). */
  firstAck: Promise<void>;
  /** Resolves when every client has lost the server. */
  done: Promise<void>;
  /** Answers with a 5xx (each one a failure of the suite). */
  serverErrors: string[];
}

export function runWorkload(
  url: string,
  users: readonly SeededUser[],
  ledger: Ledger,
  random: Random,
  options: { votes: boolean } = { votes: true },
): Workload {
  const serverErrors: string[] = [];
  let ackedOnce: () => void = () => {};
  const firstAck = new Promise<void>((resolve) => {
    ackedOnce = resolve;
  });

  const send = async (
    user: SeededUser,
    method: string,
    path: string,
    json?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Outcome> => {
    try {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${user.token}`,
          ...(json === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
      const body: unknown = await res.json();
      if (res.status >= 500) serverErrors.push(`${method} ${path} → ${res.status}`);
      if (res.ok) {
        ledger.acknowledged++;
        ackedOnce();
      }
      return { answered: true, status: res.status, body };
    } catch {
      return { answered: false };
    }
  };

  const client = async (user: SeededUser, n: number) => {
    const others = users.filter((u) => u.id !== user.id);
    for (let i = 0; ; i++) {
      const roll = random.next();
      const own = [...ledger.statuses].filter(([, s]) => s.accountId === user.id);
      let outcome: Outcome;
      if (roll < 0.3 || own.length === 0) {
        const text = `crash ${user.username} ${n}-${i} ${random.next().toString(36).slice(2)}`;
        const withPoll = random.next() < 0.15;
        const params = withPoll
          ? { status: text, poll: { options: ["yes", "no"], expires_in: 86400 } }
          : { status: text };
        const key = `post ${text}`; // the text is unique: so is the key
        outcome = await send(user, "POST", "/api/v1/statuses", params, { "idempotency-key": key });
        if (!outcome.answered) {
          ledger.pendingPosts.push({ accountId: user.id, token: user.token, key, params });
        }
        if (outcome.answered && outcome.status === 200) {
          const body = outcome.body as { id: string; poll: { id: string } | null };
          ledger.statuses.set(body.id, {
            accountId: user.id,
            text,
            deleted: { present: false, certain: true },
            pollId: body.poll?.id ?? null,
          });
        }
      } else if (roll < 0.42) {
        const [id, fact] = pick(random, own) as [string, (typeof own)[number][1]];
        if (fact.deleted.present) continue;
        const text = `edited ${n}-${i}`;
        outcome = await send(user, "PUT", `/api/v1/statuses/${id}`, { status: text });
        if (outcome.answered && outcome.status === 200) fact.text = text;
        else if (!outcome.answered) fact.text = undefined;
      } else if (roll < 0.5) {
        const [id, fact] = pick(random, own) as [string, (typeof own)[number][1]];
        if (fact.deleted.present) continue;
        outcome = await send(user, "DELETE", `/api/v1/statuses/${id}`);
        if (outcome.answered && outcome.status === 200) {
          fact.deleted = { present: true, certain: true };
        } else if (!outcome.answered) fact.deleted = { present: false, certain: false };
      } else if (roll < 0.72) {
        const id = pick(random, ledger.liveStatuses());
        if (id === undefined) continue;
        const on = !ledger.hasFavourited(user.id, id);
        const action = on ? "favourite" : "unfavourite";
        outcome = await send(user, "POST", `/api/v1/statuses/${id}/${action}`);
        // A 404 means the author deleted it meanwhile: nothing changed.
        if (!outcome.answered || outcome.status === 200) {
          settle(ledger.favourites, pairKey(user.id, id), on, outcome.answered);
        }
      } else if (roll < 0.88 || !options.votes) {
        const target = pick(random, others) as SeededUser;
        const on = !ledger.isFollowing(user.id, target.id);
        const action = on ? "follow" : "unfollow";
        outcome = await send(user, "POST", `/api/v1/accounts/${target.id}/${action}`);
        if (!outcome.answered || outcome.status === 200) {
          settle(ledger.follows, pairKey(user.id, target.id), on, outcome.answered);
        }
      } else {
        const polls = [...ledger.statuses.values()].filter(
          (s) =>
            s.pollId !== null &&
            s.accountId !== user.id &&
            !s.deleted.present &&
            !ledger.votes.has(pairKey(user.id, s.pollId)),
        );
        const poll = pick(random, polls);
        if (!poll?.pollId) continue;
        const choice = Math.floor(random.next() * 2);
        outcome = await send(user, "POST", `/api/v1/polls/${poll.pollId}/votes`, {
          choices: [choice],
        });
        if (!outcome.answered || outcome.status === 200) {
          settle(ledger.votes, pairKey(user.id, poll.pollId), true, outcome.answered);
        }
      }
      if (!outcome.answered) return; // the server is gone
    }
  };

  const done = Promise.all(users.map((user, n) => client(user, n))).then(() => undefined);
  return { firstAck, done, serverErrors };
}
