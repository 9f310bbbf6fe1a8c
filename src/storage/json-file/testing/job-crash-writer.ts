// The writer process of job-journal-crash.test.ts: opens the storage at argv[2] with a journal
// compacted every few lines, and from many concurrent loops puts statuses around their jobs (as
// an event's record is written around its write) and removes half of the jobs again, printing
// one line per acknowledged step, until the test SIGKILLs it:
//   put <id> | removed <id>

import { createIdGenerator } from "../../../domain/ids.ts";
import { makeJob } from "../../contract/fixtures-features.ts";
import { openJsonFileStorage } from "../index.ts";
import { crashStatus } from "./crash-records.ts";

const dir = process.argv[2];
if (!dir) throw new Error("usage: job-crash-writer.ts <data-dir>");

const storage = await openJsonFileStorage(dir, { jobJournal: { compactAfter: 50 } });
const ids = createIdGenerator();
// Pipes to a parent are written synchronously on POSIX, so a printed ack is not lost with us.
const ack = (line: string) => process.stdout.write(`${line}\n`);

async function loop(): Promise<never> {
  for (let n = 0; ; n++) {
    const id = ids.next();
    // A payload of the size of an event's record (it carries the status).
    const job = makeJob({ id, type: "events.run", payload: { pad: "z".repeat(1500) } });
    await storage.jobs.putAround(job, () => storage.statuses.put(crashStatus(id)));
    ack(`put ${id}`);
    if (n % 2 === 0) {
      await storage.jobs.delete(id);
      ack(`removed ${id}`);
    }
  }
}

ack("ready");
for (let i = 0; i < 32; i++) {
  loop().catch((error: unknown) => {
    process.stderr.write(`write failed: ${String(error)}\n`);
    process.exit(1);
  });
}
