// The instance actor's document: an Application named after the host, which signs the server's
// own GETs and follows nobody. It locks its followers (nobody is meant to follow it) and has
// the same collections and keys as any actor, so peers that check them find them. Pure.

import { Application } from "@fedify/vocab";
import { type ActorKeyObjects, type ActorLinks, actorEndpoints } from "./actor.ts";

export function toInstanceActor(
  id: URL,
  host: string,
  publicUrl: string,
  links: ActorLinks,
  keys: ActorKeyObjects,
): Application {
  return new Application({
    id,
    preferredUsername: host,
    name: host,
    url: new URL(publicUrl),
    manuallyApprovesFollowers: true,
    discoverable: false,
    indexable: false,
    ...actorEndpoints(links, keys),
  });
}
