// Featured hashtags in an actor's `featuredTags` collection, as Mastodon publishes and reads
// them: Hashtag objects whose `name` is `#` and the name as its owner typed it and whose `href`
// is the owner's posts with the tag. Pure.

import { type Object as ApObject, Hashtag, type Link } from "@fedify/vocab";
import type { Account } from "../../domain/account.ts";
import type { FeaturedTag } from "../../domain/relations.ts";
import { featuredTagUrl } from "../mastodon/featured-tag.ts";
import { textOf } from "./from-common.ts";

export function toFeaturedHashtag(tag: FeaturedTag, owner: Account, publicUrl: string): Hashtag {
  return new Hashtag({
    href: new URL(featuredTagUrl(tag, owner, publicUrl)),
    name: `#${tag.name}`,
  });
}

/** The name (without `#`) of a collection item that is a Hashtag; null for anything else. */
export function featuredTagNameOf(item: ApObject | Link): string | null {
  if (!(item instanceof Hashtag)) return null;
  const name = textOf(item.name).replace(/^#/, "");
  return name.length > 0 ? name : null;
}
