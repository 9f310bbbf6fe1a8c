// The read side's one way to ask who may see a status. The API's hydration, the web pages,
// ActivityPub and (later) streaming import visibility from here and never spell the rule out
// again (no `visibility === "public"` tests of their own).
//
// Where the pieces live, and why: the rule itself is pure and sits in domain/visibility.ts; the
// batched application for a viewer (following and blocking facts, one read per batch) is
// services/statuses/visibility.ts, because write use cases (favourite, reply, notify…) must
// check the very same rule and services never import views. This module is the single entry
// point readers use; it adds only the readers' cases: the anonymous reader (pages, unsigned
// fetches) and the signed ActivityPub fetch.

import type { Status } from "../domain/status.ts";
import { isOpenToAll, visibleToAnyone } from "../domain/visibility.ts";
import type { ServiceContext } from "../services/context.ts";
import { visibleStatuses } from "../services/statuses/visibility.ts";

export { loadVisibleStatus, visibleStatuses } from "../services/statuses/visibility.ts";
export { visibleToAnyone };

/**
 * Whether a deleted status may be said to have existed (410 Gone rather than 404): only when
 * anyone could see it before. Private and direct statuses are never revealed.
 */
export function deletionIsPublic(status: Status): boolean {
  return status.deleted && isOpenToAll(status.visibility);
}

/**
 * May a reader who is anonymous unless they prove who they are (a signed ActivityPub fetch) see
 * the status? Anyone sees public and unlisted statuses, whoever signs; for the others the
 * reader is identified, only then, since checking a signature costs a key fetch.
 */
export async function visibleToReader(
  ctx: ServiceContext,
  status: Status,
  identify: () => Promise<string | null>,
): Promise<boolean> {
  if (visibleToAnyone(status)) return true;
  if (status.deleted) return false;
  const viewerId = await identify();
  if (viewerId === null) return false;
  return (await visibleStatuses(ctx, viewerId, [status])).length > 0;
}
