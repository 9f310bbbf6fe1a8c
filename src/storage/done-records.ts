// Once-records (Coordination.runOnce) left to the job whose work they record, to be written by the
// statement that removes the job (JobStore.complete) or writes it back (JobStore.reschedule),
// ADR 0066. On PostgreSQL an inbox job's once-record was a round trip of its own after the work,
// then the job's removal another: the record now rides the removal, one wait fewer per activity,
// and the two commit together (a crash between them can no longer leave the record without the
// removal, or the reverse).
//
// The job runner opens a scope around each handler (jobsWork) and hands what was left in it to
// the job's end; runOnce leaves its record there (leaveToJob) only while such a scope is open, and
// writes it itself otherwise (work run outside a job: a test, a command, a request). A scope is
// closed before its records are handed over, so work still running after its job ended (a promise
// nobody awaited) writes its own record rather than leave it to a statement already sent.

import { AsyncLocalStorage } from "node:async_hooks";

/** A once-record: the key–value entry `key` holding `true` until `until` (ISO). */
export interface DoneRecord {
  key: readonly string[];
  until: string;
}

interface Scope {
  records: DoneRecord[];
  open: boolean;
}

const scopes = new AsyncLocalStorage<Scope>();

/** What a job's work left to its end, and the closing of the scope. */
export interface JobWork<T> {
  outcome: Promise<T>;
  /** Closes the scope (nothing is left to it any more) and answers what was left. */
  close(): DoneRecord[];
}

/** Runs a job's `work` in a scope that once-records may be left to. */
export function jobsWork<T>(work: () => Promise<T>): JobWork<T> {
  const scope: Scope = { records: [], open: true };
  return {
    outcome: scopes.run(scope, work),
    close() {
      scope.open = false;
      return scope.records;
    },
  };
}

/**
 * Leaves `record` to the end of the job being run: true when a job's scope took it (the job's
 * removal or rewrite writes it), false when none is open here (the caller writes it).
 */
export function leaveToJob(record: DoneRecord): boolean {
  const scope = scopes.getStore();
  if (!scope?.open) return false;
  scope.records.push(record);
  return true;
}
