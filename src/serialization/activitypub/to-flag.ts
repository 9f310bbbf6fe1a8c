// The Flag that forwards a report to the reported account's server, as Mastodon sends it: from
// the instance actor (the reporter stays anonymous to the other server), naming the account and
// the reported statuses, with the comment as content. Pure: callers pass the URIs.

import { Flag } from "@fedify/vocab";
import type { Report } from "../../domain/report.ts";
import { flagActivityId } from "./activity-ids.ts";

export function flagActivity(
  report: Report,
  instanceActorUri: string,
  targetUri: string,
  statusUris: readonly string[],
): Flag {
  return new Flag({
    id: new URL(flagActivityId(instanceActorUri, report.id)),
    actor: new URL(instanceActorUri),
    objects: [new URL(targetUri), ...statusUris.map((uri) => new URL(uri))],
    content: report.comment,
  });
}
