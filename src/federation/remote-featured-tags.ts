// Reads a remote actor's featuredTags collection when its document is stored (fetched, or sent
// in an Update), as Mastodon synchronises featured tags on every actor update. Only a collection
// on the actor's own origin is read; a failure leaves the stored features as they were.

import { type Actor, type DocumentLoader, traverseCollection } from "@fedify/vocab";
import { getLogger } from "@logtape/logtape";
import type { Account } from "../domain/account.ts";
import { featuredTagNameOf } from "../serialization/activitypub/featured-tags.ts";
import { syncRemoteFeaturedTags } from "../services/remote/remote-featured-tags.ts";
import { MAX_FEATURED_TAGS } from "../services/tags/featured-tags.ts";
import { isStorageFailure } from "../storage/failure.ts";
import type { FederationContext } from "./remote-actors.ts";

const logger = getLogger(["wren", "federation", "remote"]);

export async function readRemoteFeaturedTags(
  fctx: FederationContext,
  documentLoader: DocumentLoader,
  actor: Actor,
  account: Account,
): Promise<void> {
  const url = actor.featuredTagsId;
  if (url === null || !actor.id || url.origin !== actor.id.origin) return;
  try {
    const collection = await actor.getFeaturedTags({
      documentLoader,
      contextLoader: fctx.contextLoader,
    });
    if (collection === null) return;
    const names: string[] = [];
    for await (const item of traverseCollection(collection, {
      documentLoader,
      contextLoader: fctx.contextLoader,
    })) {
      const name = featuredTagNameOf(item);
      if (name !== null) names.push(name);
      if (names.length >= MAX_FEATURED_TAGS) break;
    }
    await syncRemoteFeaturedTags(fctx.data, account.id, names);
  } catch (error) {
    if (isStorageFailure(error)) throw error;
    logger.debug("Could not read the featured tags of {actor}: {error}", {
      actor: actor.id.href,
      error,
    });
  }
}
