// The read scenarios of issue 7: public and home timelines, one status, an account's statuses,
// relationships for 20 ids, a hashtag timeline — each against the bare server answering Wren's own bytes.
//
// They are asked signed in and repeated, with nothing written between them: since ADR 60 the
// signed-in ones of the reads Wren keeps per token (src/http/middleware/api-caching.ts) are then
// answered from a kept answer after the first, as anonymous public reads have been since ADR 8
// (the last probe). The two "rendered" probes ask the home and public timelines with
// `Cache-Control: no-cache`, which Wren always renders (and keeps): what every request cost
// before, and what a request costs whenever something was written since the viewer's last one.

import type { Probe } from "../lib/compare.ts";
import type { Seeded } from "../lib/seed.ts";

export function readProbes(seeded: Seeded): Probe[] {
  const headers = { authorization: `Bearer ${seeded.token}` };
  const rendered = { ...headers, "cache-control": "no-cache" };
  const twenty = seeded.authorIds
    .slice(0, 20)
    .map((id) => `id[]=${id}`)
    .join("&");
  return [
    { name: "public timeline", method: "GET", path: "/api/v1/timelines/public?limit=20", headers },
    { name: "home timeline", method: "GET", path: "/api/v1/timelines/home?limit=20", headers },
    {
      name: "public timeline, rendered",
      method: "GET",
      path: "/api/v1/timelines/public?limit=20",
      headers: rendered,
    },
    {
      name: "home timeline, rendered",
      method: "GET",
      path: "/api/v1/timelines/home?limit=20",
      headers: rendered,
    },
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
