// JobStore.complete and reschedule with once-records (done-records.ts, ADR 0066) on json-file:
// the records are written to the key–value store first, then the job is ended. json-file has no
// Coordination.runOnce (one process owns the directory, ADR 3), so its runner is never left
// records by its own work; this keeps the port's promise for any caller that passes some.

import type { JobStore } from "../job-port.ts";
import type { KvStore } from "../kv-port.ts";

export function writingDoneRecords<S extends JobStore>(jobs: S, kv: KvStore): S {
  const complete = jobs.complete.bind(jobs);
  const reschedule = jobs.reschedule.bind(jobs);
  const write = async (done: Parameters<JobStore["complete"]>[2]) => {
    for (const record of done ?? []) {
      await kv.set({ key: record.key, value: true, expiresAt: record.until });
    }
  };
  jobs.complete = async (id, owner, done) => {
    await write(done);
    return complete(id, owner);
  };
  jobs.reschedule = async (job, owner, done) => {
    await write(done);
    return reschedule(job, owner);
  };
  return jobs;
}
