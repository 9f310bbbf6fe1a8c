// The collections every actor document names: outbox, followers, following, featured (pins)
// and featured tags; and those every post's Note names: replies, likes and shares.

import type { Federation } from "@fedify/fedify";
import type { ServiceContext } from "../../services/context.ts";
import { registerFeatured } from "./featured.ts";
import { registerFollowers } from "./followers.ts";
import { registerFollowing } from "./following.ts";
import { registerOutbox } from "./outbox.ts";
import { registerStatusCollections } from "./status-collections.ts";

export function registerCollections(federation: Federation<ServiceContext>): void {
  registerOutbox(federation);
  registerFollowers(federation);
  registerFollowing(federation);
  registerFeatured(federation);
  registerStatusCollections(federation);
}
