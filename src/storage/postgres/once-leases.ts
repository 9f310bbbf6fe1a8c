// Coordination.runOnce on PostgreSQL (ADR 0057): work done once per key–value record among every
// process on the database, the record's own row serving as the lock while the work runs.
//
// The inbox's once-guard (federation/inbox/once.ts) took a keyed lock (a coordination_locks row:
// a statement to take, one to give back), read the record, and wrote it after the work: four
// statements per activity. Here the record's row (`kv`, key as given) is the lease itself: one
// statement takes it (inserting a lease, or taking over a lease whose holder stopped renewing it,
// or a record that expired) and says in the same answer whether the record is there; one
// statement turns the lease into the record once the work succeeded. Two statements.
//
// What holds as with the lock: copies in two processes are serialised (one holds the lease, the
// other polls until the lease is a record, then skips; or until the lease is gone, the first
// having failed, then takes it and acts). Nothing is claimed for longer than a lease: a holder
// that dies leaves a lease that passes after LEASE_SECONDS, when a rerun of its job takes it over
// and acts, as it did after the lock's lease passed. A record written by an older Wren (the same
// row, `true`) answers as before, and rows of both kinds expire and are pruned as any `kv` entry.
//
// The take's look at the record reads the statement's snapshot, which may be older than the
// moment its insert met the row: it may see a lease where the row is now a record, never a
// record where there is none (a record is final until it expires). So "done" is only answered
// from a record seen, "act" only from a lease taken; anything else polls again.

import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { getLogger } from "@logtape/logtape";
import { leaveToJob } from "../done-records.ts";
import type { Coordination } from "../ports.ts";
import type { Sql } from "./connect.ts";
import { gathered } from "./gathered-statements.ts";
import { jsonb, jsonText } from "./jsonb.ts";
import { DEFAULT_LEASE_TIMING, type LeaseTiming } from "./lease-locks.ts";

const logger = getLogger(["wren", "storage", "locks"]);

/** The most takes one statement carries (they travel as one JSON array). */
const MOST_TAKES = 500;

/** One lease asked for: `lease` of `key`, a record there counting as done until `now`. */
interface Take {
  key: string[];
  lease: string;
  now: string;
}

/** A record's value: done. Anything else in a row of a once-key is a lease. */
const DONE = true;

export function createOnceLeases(
  sql: Sql,
  timing: LeaseTiming = DEFAULT_LEASE_TIMING,
): NonNullable<Coordination["runOnce"]> {
  const processId = randomUUID();
  let taken = 0;

  /**
   * One statement taking the leases of `takes` (distinct keys), inserted in key order as the
   * once-records are (done-records-insert.ts): two statements taking or recording the same keys
   * lock them in one order and never wait for each other in a cycle. Answers per take as `take`.
   */
  async function takeStatement(takes: readonly Take[]): Promise<(boolean | undefined)[]> {
    const rows = await sql<{ n: number; taken: boolean; done: boolean }[]>`
      with input as (
        select array(select json_array_elements_text(t->'key')) as key,
          jsonb_build_object('lease', t->>'lease') as lease,
          (t->>'now')::timestamptz as now, n::int as n
        from json_array_elements(${jsonText(takes)}::text::json) with ordinality as i(t, n)
      ),
      taken as (
        insert into kv as k (key, value, expires_at)
        select key, lease, now() + make_interval(secs => ${timing.leaseSeconds})
        from input order by key
        on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at
          where case when k.value = 'true'::jsonb
            then k.expires_at <= (select i.now from input i where i.key = k.key)
            else coalesce(k.expires_at <= now(), true) end
        returning k.key
      )
      select i.n, exists (select 1 from taken t where t.key = i.key) as taken,
        exists (
          select 1 from kv where kv.key = i.key and kv.value = 'true'::jsonb
            and (kv.expires_at is null or kv.expires_at > i.now)
        ) as done
      from input i`;
    const answers = new Map(
      rows.map((row) => [row.n, row.taken ? true : row.done ? false : undefined]),
    );
    return takes.map((_, i) => answers.get(i + 1));
  }

  type Settled = { outcome: boolean | undefined } | { error: unknown };
  /**
   * Takes asked while one is under way go in one statement (gathered-statements.ts): each inbox
   * activity takes a lease, and each take alone was a statement and a commit of its own. A key
   * asked twice among them (a statement cannot upsert a row twice) is taken by the first; the
   * second is told to wait, and asks again. A statement of several that failed (a deadlock the
   * database broke, should one form all the same) took nothing: each is sent again alone.
   */
  const takeAll = gathered<Take, Settled>(
    async (_group, takes) => {
      const first = new Map<string, number>();
      for (const [i, take] of takes.entries()) {
        const name = JSON.stringify(take.key);
        if (!first.has(name)) first.set(name, i);
      }
      const sent = [...first.values()].map((i) => takes[i] as Take);
      const outcomes = await takeStatement(sent).then(
        (answers) => answers.map((outcome): Settled => ({ outcome })),
        (error: unknown) =>
          sent.length === 1
            ? [{ error }]
            : Promise.all(
                sent.map((take) =>
                  takeStatement([take]).then(
                    ([outcome]): Settled => ({ outcome }),
                    (alone: unknown): Settled => ({ error: alone }),
                  ),
                ),
              ),
      );
      return takes.map((take, i) => {
        const at = first.get(JSON.stringify(take.key));
        // A later copy of a key in this batch: the first took it (or saw it done); ask again.
        if (at !== i) return { outcome: undefined };
        return outcomes[sent.indexOf(take)] as Settled;
      });
    },
    { most: MOST_TAKES },
  );

  /** True: the lease is this holder's; false: the record is there (done); undefined: wait. */
  async function take(
    key: string[],
    lease: { lease: string },
    now: string,
  ): Promise<boolean | undefined> {
    const settled = await takeAll("take", { key, lease: lease.lease, now });
    if ("error" in settled) throw settled.error;
    return settled.outcome;
  }

  function keepRenewed(key: string[], lease: { lease: string }): () => void {
    const timer = setInterval(() => {
      sql`
        update kv set expires_at = now() + make_interval(secs => ${timing.leaseSeconds})
        where key = ${key}::text[] and value = ${jsonb(sql, lease)}
        returning 1 as renewed`.then(
        (rows) => {
          if (rows.length === 0) logger.error("Lost the lease of {key}", { key });
        },
        (error: unknown) =>
          logger.warn("Could not renew the lease of {key}: {error}", { key, error }),
      );
    }, timing.renewSeconds * 1000);
    timer.unref();
    return () => clearInterval(timer);
  }

  return async (record, now, doneUntil, work) => {
    const key = [...record];
    const lease = { lease: `${processId}:${++taken}` };
    for (let pause = 1; ; pause = Math.min(pause * 2, timing.maxPollMs)) {
      const outcome = await take(key, lease, now);
      if (outcome === false) return false;
      if (outcome === true) break;
      await sleep(pause);
    }
    const stopRenewing = keepRenewed(key, lease);
    try {
      await work();
    } catch (error) {
      stopRenewing();
      // Given back at once, so a copy waiting elsewhere acts; a release that fails only makes
      // it wait for the lease to pass.
      await sql`delete from kv where key = ${key}::text[] and value = ${jsonb(sql, lease)}`.catch(
        (failure: unknown) =>
          logger.warn("Could not give back the lease of {key}: {error}", { key, error: failure }),
      );
      throw error;
    }
    stopRenewing();
    // The work is done: recorded whoever holds the row now (a lease lost while the work ran
    // was taken over by a copy that runs too, as with any lock whose lease passed). Within a
    // job the record rides the job's removal (ADR 0066): the lease stays until that commits,
    // and a copy elsewhere polls until then as it would for this statement.
    if (leaveToJob({ key, until: doneUntil })) return true;
    await sql`
      insert into kv as k (key, value, expires_at)
      values (${key}::text[], ${jsonb(sql, DONE)}, ${doneUntil}::timestamptz)
      on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at`;
    return true;
  };
}
