// The durable job queue's store port (split from ports.ts, which re-exports it).

import type { Job } from "../domain/job.ts";
import type { DoneRecord } from "./done-records.ts";

/**
 * The durable job queue. Runners *claim* due jobs: a claim marks each job as taken by `owner`
 * until `leaseUntil` (a lease), and a taken job is not due for anyone else until its lease
 * passes, so several runners (processes) never run one job at once, and the job of a runner that
 * died mid-job (SIGKILL, power loss) comes back to the others when its lease passes. The owner
 * ends its claim by completing the job (removed) or rescheduling it (a retry or a failure); both
 * are refused once another runner has claimed the job meanwhile, so a runner whose lease ran out
 * never finishes a job twice or undoes the other's run.
 */
export interface JobStore {
  get(id: string): Promise<Job | undefined>;
  /** Stores a new waiting job, or replaces one (ending any claim on it: the new record waits). */
  put(job: Job): Promise<void>;
  /**
   * Runs `write` and stores `job` (as put) no later than the first change `write` makes, so a
   * crash never leaves the change without the job (an event's record, services/events.ts). A
   * backend may store both in one transaction (PostgreSQL, when the write is a status or edge
   * put: ADR 0033), so when `write` fails the job may not have been stored. json-file stores
   * the job first.
   */
  putAround<T>(job: Job, write: () => Promise<T>): Promise<T>;
  /** Removes the job whoever holds it (operators, recurring schedules); false when none. */
  delete(id: string): Promise<boolean>;
  /**
   * Removes a job whose work is done, now or a moment later together with others' (PostgreSQL:
   * one statement for many requests' ids, ADR 0043); resolves once the removal is done or
   * gathered. Until it is done the job stays, and should the process end first it runs once due:
   * only for jobs whose running again is harmless (an event's record: idempotent listeners).
   */
  retire(id: string): Promise<void>;
  /**
   * Claims for `owner` until `leaseUntil` (ISO) up to `limit` jobs due at `now` (runAt <= now),
   * unfailed, and not under another unexpired lease (lease <= now counts as expired); earliest
   * runAt first, then by id. Atomic across processes: two concurrent claims never both get a job.
   */
  claim(now: string, limit: number, leaseUntil: string, owner: string): Promise<Job[]>;
  /** Extends `owner`'s leases on `ids` to `leaseUntil`; returns the ids it still held. */
  renew(ids: readonly string[], owner: string, leaseUntil: string): Promise<string[]>;
  /**
   * Removes a job `owner` ran to completion; false when its claim was lost (or the job gone).
   * `done`: once-records its work left to it (done-records.ts, ADR 0066), written as the
   * key–value entries `true` until their time in the same step, whether or not the claim was
   * still held (the work they record was done).
   */
  complete(id: string, owner: string, done?: readonly DoneRecord[]): Promise<boolean>;
  /**
   * Writes back a job `owner` holds (a retry's later runAt, or failedAt when it gave up) and ends
   * the claim; false, writing no job, when the claim was lost. `done` as for complete (written
   * either way).
   */
  reschedule(job: Job, owner: string, done?: readonly DoneRecord[]): Promise<boolean>;
  /**
   * Unfailed jobs with runAt <= `now`, oldest runAt first, claimed or not: a look for tests and
   * operators, not a way to take work (see claim).
   */
  due(now: string, limit: number): Promise<Job[]>;
  /**
   * When a runner should next look: the earliest runAt of the unclaimed unfailed jobs, or the
   * earliest lease end of the claimed ones (when a dead runner's job comes back), whichever is
   * first; null when no job is waiting.
   */
  nextRunAt(): Promise<string | null>;
  /** Failed jobs, for operators. */
  failed(limit: number): Promise<Job[]>;
  /**
   * Removes up to `limit` failed jobs that failed before `before` (ISO), oldest failure first;
   * returns how many went. Kept failures are for inspection, not for ever.
   */
  deleteFailedBefore(before: string, limit: number): Promise<number>;
  /**
   * Calls `listener` when jobs may have been added or made due by another process (new jobs, a
   * group moved), so idle runners look at once instead of at their next poll; returns the
   * unsubscribe. A backend of one process may never call it (the queue wakes its own runner).
   * `runAt` (ISO), when known, is when the earliest of the new jobs falls due.
   */
  watch(listener: (runAt?: string) => void): () => void;
  /**
   * Moves the waiting jobs of `group` that are due after `runAt` (ISO) to `runAt`; returns how
   * many moved. A job already due or claimed is left alone (a runner may be running it), and one
   * that is gone stays gone: a move never brings back a job that finished meanwhile.
   */
  advanceGroup(group: string, runAt: string): Promise<number>;
}
