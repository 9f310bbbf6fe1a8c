// The writer process of crash.test.ts: opens the storage at argv[2] and writes forever from many
// concurrent loops, printing one line per acknowledged write, until the test SIGKILLs it:
//   account <id> | status <id> | deleted <id> | counter <version>

import { createIdGenerator } from "../../../domain/ids.ts";
import { openJsonFileStorage } from "../index.ts";
import { COUNTER_ID, counterAccount, crashAccount, crashStatus } from "./crash-records.ts";

const dir = process.argv[2];
if (!dir) throw new Error("usage: crash-writer.ts <data-dir>");

const storage = await openJsonFileStorage(dir);
const ids = createIdGenerator();
// Pipes to a parent are written synchronously on POSIX, so a printed ack is not lost with us.
const ack = (line: string) => process.stdout.write(`${line}\n`);

// Continue the counter where the previous (killed) run left it, so versions keep growing.
let version = Number((await storage.accounts.get(COUNTER_ID))?.displayName ?? 0);

async function loop(): Promise<never> {
  for (;;) {
    const accountId = ids.next();
    await storage.accounts.put(crashAccount(accountId));
    ack(`account ${accountId}`);

    const statusId = ids.next();
    await storage.statuses.put(crashStatus(statusId));
    ack(`status ${statusId}`);

    const v = ++version;
    await storage.accounts.put(counterAccount(v));
    ack(`counter ${v}`);

    await storage.statuses.put(crashStatus(statusId, true));
    ack(`deleted ${statusId}`);
  }
}

ack("ready");
for (let i = 0; i < 32; i++) {
  loop().catch((error: unknown) => {
    process.stderr.write(`write failed: ${String(error)}\n`);
    process.exit(1);
  });
}
