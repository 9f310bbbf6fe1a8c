// What an inbox activity is remembered by once acted on: its id and a digest of its whole body.
// Ids alone are not unique in practice: Hollo gives every Accept of one follower the same id
// (so a second follow after an unfollow would never be accepted) and every poll-count Update
// of a poll the same id. Two deliveries are the same activity only when their bodies are the
// same; the id stays in the key so that what is logged and stored can be read.

import { createHash } from "node:crypto";
import type { Activity } from "@fedify/vocab";

export interface ActivityKey {
  id: string;
  /** SHA-256 of the activity's JSON as received (base64url). */
  digest: string;
}

/**
 * The key of a parsed activity, or null when it has no id (then it cannot be told apart from
 * another and is always acted on). Call it before any getter fetches an embedded object:
 * Fedify keeps the JSON it parsed until then, so the digest is of the bytes' content as sent.
 */
export async function activityKey(activity: Activity): Promise<ActivityKey | null> {
  if (activity.id === null) return null;
  const body = JSON.stringify(await activity.toJsonLd());
  return {
    id: activity.id.href,
    digest: createHash("sha256").update(body).digest("base64url"),
  };
}
