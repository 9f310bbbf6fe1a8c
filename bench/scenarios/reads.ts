// The read scenarios of issue 7: public and home timelines, one status, an account's statuses,
// relationships for 20 ids, a hashtag timeline — each against the bare server answering Wren's own bytes.
//
// They are asked signed in, so each request does the work (loading, hydrating with the viewer's
// flags, rendering): anonymous public reads are answered from kept answers between writes
// (src/http/middleware/api-caching.ts), which the last probe measures on its own.

import type { Probe } from "../lib/compare.ts";
import type { Seeded } from "../lib/seed.ts";

export function readProbes(seeded: Seeded): Probe[] {
  const headers = { authorization: `Bearer ${seeded.token}` };
  const twenty = seeded.authorIds
    .slice(0, 20)
    .map((id) => `id[]=${id}`)
    .join("&");
  return [
    { name: "public timeline", method: "GET", path: "/api/v1/timelines/public?limit=20", headers },
    { name: "home timeline", method: "GET", path: "/api/v1/timelines/home?limit=20", headers },
    { name: "a status", method: "GET", path: `/api/v1/statuses/${seeded.statusId}`, headers },
    {
      name: "account statuses",
      method: "GET",
      path: `/api/v1/accounts/${seeded.authorIds[0]}/statuses?limit=20`,
      headers,
    },
    {
      name: "relationships (20)",
      method: "GET",
      path: `/api/v1/accounts/relationships?${twenty}`,
      headers,
    },
    // Every seeded status carries #wren (seed.ts).
    {
      name: "hashtag timeline",
      method: "GET",
      path: "/api/v1/timelines/tag/wren?limit=20",
      headers,
    },
    {
      name: "public timeline, anonymous",
      method: "GET",
      path: "/api/v1/timelines/public?limit=20",
    },
  ];
}
