// A fan-out's shared part (Job.shared, ADR 0067) held once in memory by the json-file job store
// (ADR 0078). The journal still writes each job whole, the part included, so a line says all a
// restart needs and the format is unchanged; but the job kept in memory, and handed to the runner
// by claim, holds the one frozen copy of its name's part instead of a copy of its own. Before,
// each of a fan-out's 1,000 jobs was parsed back from its 9 kB line and deep-frozen, and every
// delivery then serialized its own copy of the activity again for the body and hashed it for the
// digest (deliver-message.ts and cavage-signature.ts keep those per object, which a copy per job
// defeated); the part's JSON text is made once per name too.

import { deepFreeze } from "../../domain/deep-freeze.ts";
import type { Job } from "../../domain/job.ts";

/** Names kept (a fan-out each; a few run at once at most), as PostgreSQL's job-shares.ts keeps. */
const KEPT = 64;

interface Part {
  value: unknown;
  json: string;
}

export interface KeptJob {
  /** The job, frozen, detached from the caller's objects. */
  value: Job;
  /** Its journal line's JSON: the whole job, as JSON.stringify(job) would give it. */
  json: string;
}

/**
 * Detaches jobs for the store: a job naming a shared part gets its name's one frozen copy (the
 * first job of a name gives it; jobs of one name carry the same part, Job.shared), every other
 * job a frozen copy of its own, as before.
 */
export function sharedPartsKept(): (job: Job) => KeptJob {
  const kept = new Map<string, Part>();
  const partOf = (name: string, given: unknown): Part => {
    let part = kept.get(name);
    if (part === undefined) {
      const json = JSON.stringify(given);
      part = { value: deepFreeze(JSON.parse(json)), json };
      if (kept.size >= KEPT) kept.delete(kept.keys().next().value as string);
      kept.set(name, part);
    }
    return part;
  };
  return (job) => {
    const given = job.payload.shared;
    if (job.shared === undefined || given === undefined) {
      const json = JSON.stringify(job);
      return { value: deepFreeze(JSON.parse(json) as Job), json };
    }
    const { payload, ...rest } = job;
    const { shared: _, ...own } = payload;
    const part = partOf(job.shared, given);
    // What JSON.stringify(job) gives, but for the order of members (the payload last, its part
    // last in it), with the part's text made once: `rest` holds at least the id, type and run
    // time, `own` the delivery's own message.
    const head = `${JSON.stringify(rest).slice(0, -1)},"payload":`;
    const ownJson = JSON.stringify(own);
    const json = `${head}${ownJson.length > 2 ? `${ownJson.slice(0, -1)},` : "{"}"shared":${part.json}}}`;
    const value = JSON.parse(`${head}${ownJson}}`) as Job;
    value.payload.shared = part.value;
    return { value: deepFreeze(value), json };
  };
}
