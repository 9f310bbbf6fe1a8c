// The data the json-file status creation tools run on (create-fsyncs, create-instructions,
// create-stages): a viewer who posts, 20 authors and 200 statuses, in `dataDir`, and the bench's
// "create status" probe for it.

import { freePort } from "../../test/helpers/server.ts";
import { writeProbes } from "../scenarios/writes.ts";
import type { Probe } from "./compare.ts";
import { benchEnv, type Seeded, seed } from "./seed.ts";

export async function seedForCreates(
  dataDir: string,
): Promise<{ env: Record<string, string>; seeded: Seeded; probe: Probe }> {
  const env = benchEnv(dataDir, await freePort());
  const seeded = await seed(env, { statuses: 200, authors: 20, ownStatuses: 10 });
  const probe = writeProbes(seeded).find((p) => p.name === "create status");
  if (!probe) throw new Error("no create status probe");
  return { env, seeded, probe };
}
