// The job queue on PostgreSQL (migration 0006): one row per job, its record in `data` (json text,
// not jsonb: migration 0054, ADR 0064; the part many jobs carry alike kept once in `job_shares`,
// migration 0056, ADR 0067: job-shares.ts), and the columns the queue works on. Any number of
// processes claim from it at once: a claim takes due rows with FOR UPDATE SKIP LOCKED (a row
// another claim is taking is skipped, never waited for, never handed out twice) and marks them
// leased; finishing is conditional on the lease's owner, so a runner whose lease passed can
// neither remove nor reschedule the job another runner took. Jobs are no API answer: no
// db.changes.bump() and no change trigger; new jobs notify wren_jobs instead (the migration's
// trigger), which watch() listens to.

import { getLogger } from "@logtape/logtape";
import type postgres from "postgres";
import { compareIds } from "../../domain/ids.ts";
import type { Job } from "../../domain/job.ts";
import type { DoneRecord } from "../done-records.ts";
import type { JobStore } from "../ports.ts";
import type { Sql } from "./connect.ts";
import type { PgContext } from "./context.ts";
import { doneRecordsInsert } from "./done-records-insert.ts";
import { gathered } from "./gathered-statements.ts";
import { keptJobShares, sharesOf, storedJob } from "./job-shares.ts";
import { jsonText } from "./jsonb.ts";
import { createStatementBatch } from "./statement-batch.ts";

/** An ISO time as an instant PostgreSQL reads the same way; throws naming `what` if unreadable. */
function instant(iso: string, what: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`${what}: invalid time ${iso}`);
  return new Date(ms).toISOString();
}

/** As json-file files it: an unreadable failure time sorts first rather than hiding the job. */
function failedInstant(iso: string | null): string | null {
  if (iso === null) return null;
  const ms = Date.parse(iso);
  return new Date(Number.isNaN(ms) ? 0 : ms).toISOString();
}

const logger = getLogger(["wren", "storage", "jobs"]);

/** The channel of the wake-ups (migration 0006). */
const WAKE_CHANNEL = "wren_jobs";

/** A job's row as read: its record, and the share whose part goes back into it (job-shares.ts). */
interface JobRow {
  data: Job;
  share: string | null;
}

interface ClaimedRow extends JobRow {
  id: string;
  run_at: Date;
}

const validRunAt = (job: Job) => {
  if (Number.isNaN(Date.parse(job.runAt))) {
    throw new Error(`Job ${job.id} has an invalid runAt: ${job.runAt}`);
  }
  return new Date(Date.parse(job.runAt)).toISOString();
};

/**
 * The most jobs one insert carries: gathered puts (a fan-out's deliveries, all put at once) go
 * in statements of this many, each answering its own callers.
 */
const PUTS_AT_MOST = 1_000;

/**
 * The statement that stores new jobs or replaces them (JobStore.put, several gathered: one
 * statement, one commit and one wake-up, the trigger being per statement). The rows travel as
 * four arrays and one JSON array of the records, zipped by `rows from`, so the statement's
 * parameters do not grow with them. The records go as one JSON text rather than an array
 * literal: the client escaped every quote of every record into the literal (a fan-out's are
 * 9 kB each, 1,000 at once), the JSON array is the records' own text (ADR 0064). Of one id put
 * twice, the last is kept (a statement cannot upsert one row twice), as one statement after
 * another would. Jobs that name a share (Job.shared) store it in a `with` of this statement, so
 * a statement that carries jobs in a `with` of its own (status-puts.ts, edge-store.ts: event
 * records) may carry only jobs that name none.
 */
export function jobsInsert(sql: Sql, jobs: readonly Job[]): postgres.PendingQuery<postgres.Row[]> {
  const rows = [...new Map(jobs.map((job) => [job.id, job])).values()];
  const stored = rows.map(storedJob);
  const { keys, parts } = sharesOf(stored);
  // The shares first, in the same statement: a job's row never names a share that is not
  // there, and the touch keeps a share the sweep would take (job-shares.ts).
  const shares =
    keys.length === 0
      ? sql``
      : sql`with shares as (
          insert into job_shares (key, data)
          select * from rows from (
            unnest(${sql.array(keys)}::text[]), json_array_elements(${jsonText(parts)}::text::json))
          on conflict (key) do update set touched = now()
        )`;
  return sql`
    ${shares}
    insert into jobs (id, run_at, failed_at, grp, share, data)
    select * from rows from (
      unnest(${sql.array(rows.map((job) => job.id))}::text[]),
      unnest(${sql.array(rows.map(validRunAt))}::timestamptz[]),
      unnest(${sql.array(rows.map((job) => failedInstant(job.failedAt)))}::timestamptz[]),
      unnest(${sql.array(rows.map((job) => job.group ?? null))}::text[]),
      unnest(${sql.array(stored.map((job) => job.share))}::text[]),
      json_array_elements(${jsonText(stored.map((job) => job.record))}::text::json))
    on conflict (id) do update set
      run_at = excluded.run_at, failed_at = excluded.failed_at, grp = excluded.grp,
      share = excluded.share, data = excluded.data, lease_until = null, lease_owner = null`;
}

/**
 * The statement that stores a new job or replaces one, on `sql` or a transaction: what a write
 * that carries a job sends with its own change (outbox.ts).
 */
export function jobInsert(sql: Sql, job: Job): postgres.PendingQuery<postgres.Row[]> {
  return jobsInsert(sql, [job]);
}

/** A job's removal and the once-records its work left to it. */
interface Completion {
  id: string;
  done: readonly DoneRecord[];
}

/** How long finished event records are gathered before one statement removes them (ms). */
const RETIRE_DELAY_MS = 50;
/** The most ids one removal statement takes. */
const RETIRE_MAX_IDS = 1_000;

/** The job store, and the removals it gathered to send before the storage closes. */
export interface PgJobStore extends JobStore {
  flushRetired(): Promise<void>;
}

export function createJobStore(db: PgContext): PgJobStore {
  const { sql } = db;
  const shares = keptJobShares(sql);
  // Finished event records, removed many at a time (statement-batch.ts, ADR 0043).
  const retired = createStatementBatch({
    send: (ids) => sql`delete from jobs where id = any(${sql.array(ids)}::text[])`,
    delayMs: RETIRE_DELAY_MS,
    maxIds: RETIRE_MAX_IDS,
    what: "removal of finished jobs",
  });

  // New jobs and finished ones, gathered while a statement is under way (ADR 0057): every inbox
  // activity is a put as it is accepted and a completion once run, and a fan-out puts one
  // delivery per inbox at once (ADR 0059).
  const puts = gathered<Job, void>(
    async (_group, jobs) => {
      await jobsInsert(sql, jobs);
      return jobs.map(() => undefined);
    },
    { most: PUTS_AT_MOST },
  );
  // A completion's once-records (ADR 0066) go in the removal's statement, written whether or not
  // the removal found the job still this runner's (the work they record was done).
  const completions = gathered<Completion, boolean>(async (owner, items) => {
    const ids = items.map((item) => item.id);
    const done = items.flatMap((item) => item.done);
    const rows = await sql<{ id: string }[]>`
      with gone as (
        delete from jobs where id = any(${sql.array(ids)}::text[]) and lease_owner = ${owner}
        returning id
      )${done.length === 0 ? sql`` : sql`, recorded as (${doneRecordsInsert(sql, done)})`}
      select id from gone`;
    // One id completed twice at once is done once.
    const removed = new Set(rows.map((row) => row.id));
    shares.sweepSoon();
    return ids.map((id) => removed.delete(id));
  });

  const listeners = new Set<(runAt?: string) => void>();
  const tellAll = (runAt?: string) => {
    for (const listener of listeners) listener(runAt);
  };
  /**
   * A wake-up names its writer and the earliest new job's due time ("writer|runAt", migration
   * 0046; the time may be empty). This process's own are skipped: its enqueue woke its runner
   * already (durable-queue.ts), and the echo, heard later, would have it look again at a moment
   * nobody chose. An older process's payload (a bare time, or empty) wakes as it always did.
   */
  const heard = (payload: string) => {
    const bar = payload.indexOf("|");
    if (bar !== -1 && payload.slice(0, bar) === db.self) return;
    const runAt = bar === -1 ? payload : payload.slice(bar + 1);
    tellAll(runAt ? runAt : undefined);
  };
  /**
   * Called on every connection of a LISTEN: notices sent while it was down are lost, so a
   * reconnection looks at the table. Not the first one: a runner looks as it starts watching.
   */
  const onConnection = () => {
    let connections = 0;
    return () => {
      if (connections++ > 0) tellAll();
    };
  };
  /** The LISTEN, opened for the first watcher (processes that only enqueue never listen). */
  let listening: Promise<{ unlisten(): Promise<void> } | undefined> | undefined;

  return {
    async get(id) {
      const rows = await sql<JobRow[]>`select data, share from jobs where id = ${id}`;
      return (await shares.whole(rows))[0];
    },

    async put(job) {
      // Refused here, alone: in the gathered insert it would fail every put beside it.
      validRunAt(job);
      await puts("", job);
    },

    // Carried into the write when it is a status or an edge put (outbox.ts, ADR 0033).
    async putAround(job, write) {
      validRunAt(job);
      return db.outbox.around(job, write);
    },

    async delete(id) {
      const result = await sql`delete from jobs where id = ${id}`;
      return result.count > 0;
    },

    async retire(id) {
      retired.add(id);
    },

    flushRetired: () => retired.flush(),

    async claim(now, limit, leaseUntil, owner) {
      const at = instant(now, "claim");
      const until = instant(leaseUntil, "claim");
      if (limit <= 0) return [];
      // Retired here but not yet deleted (the batch waits a moment): done, never taken again by
      // this process, whatever the clock says of their lease.
      const retiring = retired.pending();
      const rows = await sql<ClaimedRow[]>`
        update jobs set lease_until = ${until}, lease_owner = ${owner}
        where id in (
          select id from jobs
          where run_at <= ${at} and failed_at is null
            and (lease_until is null or lease_until <= ${at})
            ${retiring.length === 0 ? sql`` : sql`and id <> all(${sql.array(retiring)}::text[])`}
          order by run_at, length(id), id
          limit ${limit}
          for update skip locked
        )
        returning id, run_at, data, share`;
      // RETURNING keeps no order.
      return shares.whole(
        rows.sort((a, b) => a.run_at.getTime() - b.run_at.getTime() || compareIds(a.id, b.id)),
      );
    },

    async renew(ids, owner, leaseUntil) {
      const until = instant(leaseUntil, "renew");
      if (ids.length === 0) return [];
      const rows = await sql<{ id: string }[]>`
        update jobs set lease_until = ${until}
        where id = any(${sql.array([...ids])}::text[]) and lease_owner = ${owner}
        returning id`;
      const held = new Set(rows.map((row) => row.id));
      return ids.filter((id) => held.has(id));
    },

    complete: (id, owner, done = []) => completions(owner, { id, done }),

    async reschedule(job, owner, done = []) {
      const runAt = validRunAt(job);
      // The job's share stays (it is there: this row names it); only its record is written.
      const { record, share } = storedJob(job);
      const rows = await sql<{ id: string }[]>`
        ${done.length === 0 ? sql`` : sql`with recorded as (${doneRecordsInsert(sql, done)})`}
        update jobs set
          run_at = ${runAt}, failed_at = ${failedInstant(job.failedAt)}, grp = ${job.group ?? null},
          share = ${share}, data = ${jsonText(record)}::text::json,
          lease_until = null, lease_owner = null
        where id = ${job.id} and lease_owner = ${owner}
        returning id`;
      return rows.length > 0;
    },

    async due(now, limit) {
      const at = instant(now, "due");
      if (limit <= 0) return [];
      const rows = await sql<JobRow[]>`
        select data, share from jobs
        where run_at <= ${at} and failed_at is null
        order by run_at, length(id), id
        limit ${limit}`;
      return shares.whole(rows);
    },

    async nextRunAt() {
      const [row] = await sql<
        { run_at: Date | null; run_at_text: string | null; until: Date | null }[]
      >`
        select w.run_at, w.run_at_text, l.until
        from (
          select min(lease_until) as until from jobs
          where lease_until is not null and failed_at is null
        ) l
        left join lateral (
          select run_at, data->>'runAt' as run_at_text from jobs
          where failed_at is null and lease_until is null
          order by run_at, length(id), id
          limit 1
        ) w on true`;
      if (!row) return null;
      if (row.until !== null && (row.run_at === null || row.until < row.run_at)) {
        return row.until.toISOString();
      }
      return row.run_at_text;
    },

    watch(listener) {
      listeners.add(listener);
      listening ??= sql.listen(WAKE_CHANNEL, heard, onConnection()).catch((error) => {
        logger.error("Could not listen for new jobs (runners poll instead): {error}", { error });
        return undefined;
      });
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0 || !listening) return;
        const closing = listening;
        listening = undefined;
        void closing.then((handle) => handle?.unlisten()).catch(() => {});
      };
    },

    async failed(limit) {
      if (limit <= 0) return [];
      const rows = await sql<JobRow[]>`
        select data, share from jobs
        where failed_at is not null
        order by failed_at desc, length(id) desc, id desc
        limit ${limit}`;
      return shares.whole(rows);
    },

    async deleteFailedBefore(before, limit) {
      if (limit <= 0) return 0;
      const at = instant(before, "deleteFailedBefore");
      const [row] = await sql<{ removed: number }[]>`
        with gone as (
          delete from jobs where id in (
            select id from jobs
            where failed_at is not null and failed_at < ${at}
            order by failed_at
            limit ${limit}
          )
          returning 1
        )
        select count(*)::int as removed from gone`;
      return row?.removed ?? 0;
    },

    async advanceGroup(group, runAt) {
      const at = instant(runAt, "advanceGroup");
      // A row the runner removed is gone (an UPDATE never brings one back); a claimed one keeps
      // its time (lease_until is null only while no runner holds it).
      // Runners elsewhere are woken when any moved (notified at the statement's commit).
      const [row] = await sql<{ moved: number }[]>`
        with moved as (
          update jobs set run_at = ${at},
            data = jsonb_set(data::jsonb, '{runAt}', to_jsonb(${runAt}::text))::json
          where grp = ${group} and failed_at is null and lease_until is null and run_at > ${at}
          returning 1
        )
        select count(*)::int as moved,
          case when count(*) > 0 then pg_notify(${WAKE_CHANNEL}, ${`${db.self}|`}) end as woke
        from moved`;
      return row?.moved ?? 0;
    },
  };
}
