// The parts many jobs carry alike, stored once per name (Job.shared, migration 0056, ADR 0067):
// a fan-out's 1,000 delivery jobs each carried the same 8 kB activity and keys, written,
// compressed, claimed and parsed 1,000 times. A row of `jobs` holds its record without the
// payload's `shared` property and names its share; the store puts the part back as it reads.
//
// A share's content never changes for its name (one fan-out's activity), so each process keeps
// the recent ones it read: a claim asks the database only for the shares it does not hold, and
// the jobs of one fan-out get the same object back (deliver-message.ts serializes it once).

import { getLogger } from "@logtape/logtape";
import type { Job } from "../../domain/job.ts";
import type { Sql } from "./connect.ts";

const logger = getLogger(["wren", "storage", "jobs"]);

/** Shares kept per process (a fan-out each; a few run at once at most). */
const KEPT = 64;
/** How often a process sweeps the shares no job names (ms). */
const SWEEP_EVERY_MS = 60_000;

/** A job's row as stored: the record without its shared part, and the part's name and value. */
export interface StoredJob {
  record: Job;
  share: string | null;
  part: unknown;
}

/** Splits a job for its row: its `payload.shared` goes to its share when it names one. */
export function storedJob(job: Job): StoredJob {
  if (job.shared === undefined || !("shared" in job.payload)) {
    return { record: job, share: null, part: undefined };
  }
  const { shared: part, ...payload } = job.payload;
  return { record: { ...job, payload }, share: job.shared, part };
}

/** The shares of some stored jobs, each name once (a statement upserts a key once at most). */
export function sharesOf(stored: readonly StoredJob[]): { keys: string[]; parts: unknown[] } {
  const parts = new Map<string, unknown>();
  for (const { share, part } of stored) if (share !== null) parts.set(share, part);
  return { keys: [...parts.keys()], parts: [...parts.values()] };
}

/**
 * A job's record as read back (`record` fresh from its row: it is completed, not copied), its
 * shared part put back (undefined: the part is missing).
 */
export function wholeJob(record: Job, share: string | null, part: unknown): Job {
  if (share === null) return record;
  if (part === undefined) {
    // Not expected (a share outlives its jobs); the job's handler will fail on what is missing.
    logger.error("Job {id} names share {share}, which is gone", { id: record.id, share });
    return record;
  }
  // The record was just parsed from the row, for this caller alone: completed in place.
  record.shared = share;
  record.payload.shared = part;
  return record;
}

/**
 * Removes the shares no job names that were not touched for a minute; resolves with how many.
 * A share touched within the minute may be named by jobs still being inserted (a fan-out's
 * later statement, which touches it in its own `with`): should such an insert touch it while the
 * sweep runs, the time is checked again on the row itself, so a share is never taken from under
 * jobs that name it.
 */
export async function sweepJobShares(sql: Sql): Promise<number> {
  const result = await sql`
    delete from job_shares s
    where s.touched < now() - interval '1 minute'
      and not exists (select 1 from jobs j where j.share = s.key)`;
  return result.count;
}

export interface JobSharesKept {
  /** Puts their shared parts back into rows read from `jobs`: held here, or fetched. */
  whole(rows: readonly { data: Job; share: string | null }[]): Promise<Job[]>;
  /** Removes, now and then, the shares no job names (called after completions). */
  sweepSoon(): void;
}

export function keptJobShares(sql: Sql): JobSharesKept {
  /** Insertion-ordered: the oldest is dropped first. */
  const kept = new Map<string, unknown>();
  const keep = (share: string, part: unknown) => {
    kept.delete(share);
    kept.set(share, part);
    if (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
  };
  /** The parts of `shares`, from those held here and one statement for the others. */
  async function parts(shares: ReadonlySet<string>): Promise<Map<string, unknown>> {
    const found = new Map<string, unknown>();
    const missing: string[] = [];
    for (const share of shares) {
      if (kept.has(share)) found.set(share, kept.get(share));
      else missing.push(share);
    }
    if (missing.length === 0) return found;
    const rows = await sql<{ key: string; data: unknown }[]>`
      select key, data from job_shares where key = any(${sql.array(missing)}::text[])`;
    for (const row of rows) {
      keep(row.key, row.data);
      found.set(row.key, row.data);
    }
    return found;
  }
  let sweptAt = Date.now();
  return {
    async whole(rows) {
      const shares = new Set<string>();
      for (const row of rows) if (row.share !== null) shares.add(row.share);
      if (shares.size === 0) return rows.map((row) => row.data);
      const found = await parts(shares);
      return rows.map((row) =>
        wholeJob(row.data, row.share, row.share === null ? undefined : found.get(row.share)),
      );
    },
    sweepSoon() {
      if (Date.now() - sweptAt < SWEEP_EVERY_MS) return;
      sweptAt = Date.now();
      void sweepJobShares(sql).catch((error: unknown) =>
        logger.error("Could not sweep the job shares: {error}", { error }),
      );
    },
  };
}
