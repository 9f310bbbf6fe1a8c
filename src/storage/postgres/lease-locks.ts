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
// Releases asked while one is under way go together in one statement (gathered-statements.ts):
// each given back alone was a statement and a commit of its own.

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

export function createLeaseLocks(sql: Sql, timing: LeaseTiming = DEFAULT_LEASE_TIMING): WithLock {
  const inProcess = createKeyedLock();
  const processId = randomUUID();
  let taken = 0;

  /** Inserts the lease, or takes over one whose holder stopped renewing it; false: held. */
  const takeLease = async (key: string, holder: string): Promise<boolean> => {
    const rows = await sql`
      insert into coordination_locks as l (key, holder, expires_at)
      values (${key}, ${holder}, now() + make_interval(secs => ${timing.leaseSeconds}))
      on conflict (key) do update set holder = excluded.holder, expires_at = excluded.expires_at
        where l.expires_at <= now()
      returning 1 as taken`;
    return rows.length > 0;
  };

  async function take(key: string, holder: string): Promise<void> {
    for (let pause = 1; ; pause = Math.min(pause * 2, timing.maxPollMs)) {
      if (await takeLease(key, holder)) return;
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

  return (key, work) =>
    inProcess(key, async () => {
      const holder = `${processId}:${++taken}`;
      const row = rowKey(key);
      await take(row, holder);
      const stopRenewing = keepRenewed(row, holder);
      try {
        return await work();
      } finally {
        stopRenewing();
        await release(row, holder);
      }
    });
}
