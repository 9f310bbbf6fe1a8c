// `node bench/seed-dir.ts <dir> <statuses>`: seeds a data directory once, the way the bench does
// (bench/lib/seed.ts), so start-up can be measured many times on the same data without paying
// minutes of seeding per measurement. Prints the seeded ids as JSON.

import { benchEnv, seed } from "./lib/seed.ts";

const [dir, count] = process.argv.slice(2);
if (dir === undefined || count === undefined || !(Number(count) >= 0)) {
  process.stderr.write("usage: node bench/seed-dir.ts <dir> <statuses>\n");
  process.exit(2);
}
const seeded = await seed(benchEnv(dir, 3999), { statuses: Number(count), authors: 100 });
process.stdout.write(`${JSON.stringify({ ...seeded, favouriteTargets: [], followTargets: [] })}\n`);
