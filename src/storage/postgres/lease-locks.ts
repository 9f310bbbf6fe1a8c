// Keyed locks shared by every process on the database, as lease rows (coordination_locks).
//
// Not advisory locks: pg_advisory_xact_lock holds a pooled connection for as long as the locked
// work runs, and that work needs connections of the same pool for its own queries, so a handful
// of concurrent holders (or one holder nesting a second lock, as attaching media does) could take
// every connection and wait forever. A lease costs one statement to take and one to give back,
// and nobody keeps a connection while holding or waiting.
//
// Callers queue per key inside the process first (in-process keyed lock), so a process has at
// most one lease or one poller per key. A lease is renewed while its work runs; a process that
// dies leaves its rows to expire after LEASE_SECONDS, when another process may take them over.
// A take may read in the same round trip what the locked work reads first (`reading`, ADR 0063:
// the ingest of a remote post, which looks for the status under its lock). Releases asked while
// one is under way go together in one statement (gathered-statements.ts): every ingested inbox
// post gives back a lease, and each given back alone was a statement and a commit of its own.

import { createHash, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { getLogger } from "@logtape/logtape";
import { createKeyedLock, type WithLock } from "../in-process/keyed-lock.ts";
import type { Sql } from "./connect.ts";
import { gathered } from "./gathered-statements.ts";

const logger = getLogger(["wren", "storage", "locks"]);

/** The most releases one statement gives back (the keys travel as one array). */
const MOST_RELEASES = 1_000;

/** Keys longer than this (an activity id is a URL of any length) are kept as their digest. */
const LONGEST_KEPT_KEY = 200;

const rowKey = (key: string) =>
  key.length <= LONGEST_KEPT_KEY
    ? key
    : `sha256:${createHash("sha256").update(key).digest("base64url")}`;

export interface LeaseTiming {
  /** How long a lease lasts unless renewed (a dead holder blocks its keys this long). */
  leaseSeconds: number;
  /** How often a held lease is renewed (well within leaseSeconds). */
  renewSeconds: number;
  /** Longest pause between two attempts to take a lease another process holds. */
  maxPollMs: number;
}

export const DEFAULT_LEASE_TIMING: LeaseTiming = {
  leaseSeconds: 30,
  renewSeconds: 10,
  maxPollMs: 50,
};

/**
 * One attempt to take the lease of `key` for `holder` (lasting `leaseSeconds`), and, when taken,
 * what the same round trip read under it (ADR 0063); `{ taken: false }` polls again.
 */
export type TakeReading<R> = (
  key: string,
  holder: string,
  leaseSeconds: number,
) => Promise<{ taken: true; read: R } | { taken: false }>;

export interface LeaseLocks extends WithLock {
  /**
   * As the lock itself, the lease taken by `attempt`, whose statement also reads what `work`
   * needs first under the lock: one round trip where the take and the read were two. Answers as
   * soon as `work` settles; the lease is given back just after (another holder of the key, here
   * or elsewhere, still waits for that).
   */
  reading<R, T>(key: string, attempt: TakeReading<R>, work: (read: R) => Promise<T>): Promise<T>;
}

export function createLeaseLocks(sql: Sql, timing: LeaseTiming = DEFAULT_LEASE_TIMING): LeaseLocks {
  const inProcess = createKeyedLock();
  const processId = randomUUID();
  let taken = 0;

  /** Inserts the lease, or takes over one whose holder stopped renewing it. */
  const takeLease: TakeReading<undefined> = async (key, holder, leaseSeconds) => {
    const rows = await sql`
      insert into coordination_locks as l (key, holder, expires_at)
      values (${key}, ${holder}, now() + make_interval(secs => ${leaseSeconds}))
      on conflict (key) do update set holder = excluded.holder, expires_at = excluded.expires_at
        where l.expires_at <= now()
      returning 1 as taken`;
    return rows.length > 0 ? { taken: true, read: undefined } : { taken: false };
  };

  async function take<R>(key: string, holder: string, attempt: TakeReading<R>): Promise<R> {
    for (let pause = 1; ; pause = Math.min(pause * 2, timing.maxPollMs)) {
      const outcome = await attempt(key, holder, timing.leaseSeconds);
      if (outcome.taken) return outcome.read;
      await sleep(pause);
    }
  }

  function keepRenewed(key: string, holder: string): () => void {
    const timer = setInterval(() => {
      sql`
        update coordination_locks
        set expires_at = now() + make_interval(secs => ${timing.leaseSeconds})
        where key = ${key} and holder = ${holder}
        returning 1 as renewed`.then(
        (rows) => {
          if (rows.length === 0) logger.error("Lost the lease of lock {key}", { key });
        },
        (error: unknown) => logger.warn("Could not renew lock {key}: {error}", { key, error }),
      );
    }, timing.renewSeconds * 1000);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Deletes the leases of `leases` still held by their holders: one statement for them all. */
  const giveBack = gathered<{ key: string; holder: string }, undefined>(
    async (_group, leases) => {
      await sql`
        delete from coordination_locks l
        using unnest(${leases.map((l) => l.key)}::text[], ${leases.map((l) => l.holder)}::text[])
          as r(key, holder)
        where l.key = r.key and l.holder = r.holder`;
      return leases.map(() => undefined);
    },
    { most: MOST_RELEASES },
  );

  async function release(key: string, holder: string): Promise<void> {
    // Awaited before the next waiter of this process runs, which can then take the lease at
    // once; a release that fails only makes the next holder wait for the lease to expire.
    await giveBack("release", { key, holder }).catch((error: unknown) =>
      logger.warn("Could not release lock {key}: {error}", { key, error }),
    );
  }

  /**
   * Runs `work` holding the lease `attempt` takes. `early`: the caller has the work's outcome as
   * soon as it settles, the release following on its own (this process's next holder of the key
   * still waits for it), so the caller's next statement shares the release's round trip.
   */
  const hold = <R, T>(
    key: string,
    attempt: TakeReading<R>,
    work: (read: R) => Promise<T>,
    early: boolean,
  ): Promise<T> => {
    const outcome = Promise.withResolvers<T>();
    const held = inProcess(key, async () => {
      const holder = `${processId}:${++taken}`;
      const row = rowKey(key);
      const read = await take(row, holder, attempt);
      const stopRenewing = keepRenewed(row, holder);
      try {
        const result = await work(read);
        if (early) outcome.resolve(result);
        return result;
      } catch (error) {
        if (early) outcome.reject(error);
        throw error;
      } finally {
        stopRenewing();
        await release(row, holder);
      }
    });
    if (!early) return held;
    // A take that failed (the work never ran); otherwise settled already, and this is a no-op.
    held.then(outcome.resolve, outcome.reject);
    return outcome.promise;
  };
  const reading = <R, T>(key: string, attempt: TakeReading<R>, work: (read: R) => Promise<T>) =>
    hold(key, attempt, work, true);
  const withLock: WithLock = (key, work) => hold(key, takeLease, work, false);
  return Object.assign(withLock, { reading });
}
