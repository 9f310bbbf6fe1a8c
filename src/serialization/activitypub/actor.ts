// AccountView → the ActivityPub actor of a local account (Person; Service for bots; Group for
// groups), with the fields Mastodon reads when it resolves a remote account. Pure: the actor's
// collection URIs and its public keys come from the caller (Fedify's context knows them).

import {
  type CryptographicKey,
  Endpoints,
  Group,
  Image,
  type Multikey,
  Person,
  PropertyValue,
  Service,
} from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import { aliasesOf, type ImageRef, movedToOf } from "../../domain/account.ts";
import type { AccountView } from "../../views/account-view.ts";
import { toEmoji } from "./emoji.ts";
import { type ApUrls, imageUrl, mediaTypeOfName } from "./urls.ts";

export interface ActorLinks {
  inbox: URL;
  sharedInbox: URL;
  outbox: URL;
  followers: URL;
  following: URL;
  featured: URL;
  featuredTags: URL;
}

export interface ActorKeyObjects {
  /** The RSA key HTTP Signatures are verified with. */
  publicKey: CryptographicKey | null;
  assertionMethods: Multikey[];
}

/** The collections, inboxes and keys every actor document carries (local and instance actors). */
export function actorEndpoints(links: ActorLinks, keys: ActorKeyObjects) {
  return {
    inbox: links.inbox,
    outbox: links.outbox,
    followers: links.followers,
    following: links.following,
    featured: links.featured,
    featuredTags: links.featuredTags,
    endpoints: new Endpoints({ sharedInbox: links.sharedInbox }),
    publicKey: keys.publicKey,
    assertionMethods: keys.assertionMethods,
  };
}

function toImage(ref: ImageRef | null, urls: ApUrls): Image | null {
  const url = imageUrl(ref, urls);
  if (url === null) return null;
  const mediaType = ref?.kind === "hosted" ? ref.contentType : mediaTypeOfName(url);
  return new Image({ url: new URL(url), mediaType });
}

export function toActor(
  view: AccountView,
  links: ActorLinks,
  keys: ActorKeyObjects,
  urls: ApUrls,
): Person | Service | Group {
  const { account } = view;
  // Suspended by our moderators, it is still served (peers learn of the suspension from it and
  // from the Update that carries it, and a lifted suspension restores it), but as Mastodon's
  // ActorSerializer serves an unavailable account: flagged, named by its username, its profile,
  // images, fields, emojis, aliases and move left out.
  const suspended = account.suspended === true;
  const moved = suspended ? null : movedToOf(account);
  const values = {
    id: new URL(account.uri),
    preferredUsername: account.username,
    name: suspended ? account.username : account.displayName,
    summary: suspended ? "" : account.noteHtml,
    url: new URL(account.url),
    // Mastodon publishes only the day an account was made.
    published: Temporal.Instant.from(`${account.createdAt.slice(0, 10)}T00:00:00Z`),
    manuallyApprovesFollowers: !suspended && account.locked,
    discoverable: !suspended && account.discoverable,
    indexable: !suspended && account.indexable,
    memorial: false,
    ...(suspended ? { suspended: true } : {}),
    ...actorEndpoints(links, keys),
    icon: suspended ? null : toImage(account.avatar, urls),
    image: suspended ? null : toImage(account.header, urls),
    attachments: suspended
      ? []
      : account.fields.map((f) => new PropertyValue({ name: f.name, value: f.valueHtml })),
    tags: suspended ? [] : view.emojis.map((emoji) => toEmoji(emoji, urls)),
    // alsoKnownAs and movedTo: what a server checks before following a Move to or from here.
    aliases: suspended ? [] : aliasesOf(account).map((uri) => new URL(uri)),
    successor: moved === null ? null : new URL(moved),
  };
  if (account.group) return new Group(values);
  return account.bot ? new Service(values) : new Person(values);
}
