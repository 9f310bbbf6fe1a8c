// A remote actor document (Person, Service, Application, Group, Organization) → the draft of
// the local account record that stands for it (DESIGN §1), as Mastodon's ProcessAccountService
// reads it: HTML sanitised, images linked where they live, delivery and collection URLs kept.
// Pure: nothing is fetched; counters of collections are the caller's to add.

import { type Actor, Application, Group, type Image, PropertyValue, Service } from "@fedify/vocab";
import type { AccountField, ImageRef } from "../../domain/account.ts";
import type { RemoteAccountDraft } from "../../services/remote/drafts.ts";
import {
  EMBEDDED_ONLY,
  emojisOf,
  hostOf,
  httpUrl,
  isoOf,
  linkHref,
  textOf,
  truncate,
} from "./from-common.ts";
import { sanitizeRemoteHtml } from "./sanitize-html.ts";

const MAX_FIELDS = 16;
const MAX_NAME = 2048;
const MAX_FIELD_NAME = 255;
const MAX_FIELD_VALUE = 2047;
const MAX_NOTE = 100_000;
const MAX_ALIASES = 32;

/** Remote usernames: anything but spaces, `@`, `/` and controls (Mastodon is as lenient). */
const REMOTE_USERNAME = /^[^\s@/\p{Cc}]{1,255}$/u;

function imageRef(image: Image | null): ImageRef | null {
  if (!image) return null;
  const url = linkHref(image.url);
  return url ? { kind: "remote", url, staticUrl: url } : null;
}

async function fieldsOf(actor: Actor): Promise<AccountField[]> {
  const fields: AccountField[] = [];
  for await (const item of actor.getAttachments(EMBEDDED_ONLY)) {
    if (!(item instanceof PropertyValue) || fields.length >= MAX_FIELDS) continue;
    const name = truncate(textOf(item.name), MAX_FIELD_NAME);
    // Cut before sanitising, which closes whatever the cut left open.
    const value = sanitizeRemoteHtml(truncate(textOf(item.value), MAX_FIELD_VALUE));
    if (name === "") continue;
    fields.push({ name, value, valueHtml: value, verifiedAt: null });
  }
  return fields;
}

function urlList(urls: readonly URL[], max: number): string[] {
  return urls.flatMap((u) => httpUrl(u) ?? []).slice(0, max);
}

/** The draft of the actor's record, or null when it lacks what an account needs. */
export async function actorToDraft(actor: Actor): Promise<RemoteAccountDraft | null> {
  const id = actor.id;
  const uri = httpUrl(id);
  const inbox = httpUrl(actor.inboxId);
  const username = textOf(actor.preferredUsername);
  if (!id || !uri || !inbox || !REMOTE_USERNAME.test(username)) return null;
  const [icon, image, fields, emojis] = await Promise.all([
    actor.getIcon(EMBEDDED_ONLY),
    actor.getImage(EMBEDDED_ONLY),
    fieldsOf(actor),
    emojisOf(actor),
  ]);
  return {
    uri,
    url: linkHref(actor.url) ?? uri,
    username,
    domain: hostOf(id),
    displayName: truncate(textOf(actor.name), MAX_NAME),
    noteHtml: sanitizeRemoteHtml(truncate(textOf(actor.summary), MAX_NOTE)),
    fields,
    avatar: imageRef(icon),
    header: imageRef(image),
    locked: actor.manuallyApprovesFollowers === true,
    bot: actor instanceof Service || actor instanceof Application,
    group: actor instanceof Group,
    discoverable: actor.discoverable === true,
    indexable: actor.indexable === true,
    suspended: actor.suspended === true,
    publishedAt: isoOf(actor.published),
    emojis,
    remote: {
      inbox,
      sharedInbox: httpUrl(actor.endpoints?.sharedInbox),
      outbox: httpUrl(actor.outboxId),
      followers: httpUrl(actor.followersId),
      following: httpUrl(actor.followingId),
      featured: httpUrl(actor.featuredId),
      alsoKnownAs: urlList(actor.aliasIds, MAX_ALIASES),
      movedTo: httpUrl(actor.successorId),
      followersCount: null,
      followingCount: null,
      statusesCount: null,
    },
  };
}
