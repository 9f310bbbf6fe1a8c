// The write scenarios of issue 7: create a status, favourite, follow — each compared with the
// bare server (same response bytes) and with the raw crash-safe write rate of the same bytes.

import type { Probe } from "../lib/compare.ts";
import type { Seeded } from "../lib/seed.ts";

export function writeProbes(seeded: Seeded): Probe[] {
  const auth = { authorization: `Bearer ${seeded.token}`, "content-type": "application/json" };
  return [
    {
      name: "create status",
      method: "POST",
      path: "/api/v1/statuses",
      headers: auth,
      body: JSON.stringify({ status: "Benchmarking Wren, one post at a time #bench" }),
    },
    {
      name: "favourite",
      method: "POST",
      path: `/api/v1/statuses/${seeded.favouriteTargets[0]}/favourite`,
      headers: auth,
      paths: seeded.favouriteTargets.map((id) => `/api/v1/statuses/${id}/favourite`),
    },
    {
      name: "follow",
      method: "POST",
      path: `/api/v1/accounts/${seeded.followTargets[0]}/follow`,
      headers: auth,
      paths: seeded.followTargets.map((id) => `/api/v1/accounts/${id}/follow`),
    },
  ];
}
