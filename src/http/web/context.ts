// What the page renderers need besides the views: where URLs point and the page's asset list.

import type { Account, ImageRef } from "../../domain/account.ts";
import { type CustomEmoji, emojiImageUrl } from "../../domain/custom-emoji.ts";
import type { ServiceContext } from "../../services/context.ts";
import { MISSING_AVATAR_PATH, MISSING_HEADER_PATH } from "../default-images.ts";
import type { PageAssets } from "./layout.ts";
import { newAssets, useImage } from "./layout.ts";

export interface WebContext {
  /** Origin of the instance, e.g. `https://social.example`. */
  publicUrl: string;
  /** Host of local accounts, shown in full handles. */
  domain: string;
  siteName: string;
  fileUrl(key: string): string;
  assets: PageAssets;
}

/** A fresh context for one page or feed (its own asset list). */
export function newWebContext(ctx: ServiceContext): WebContext {
  return {
    publicUrl: ctx.settings.publicUrl,
    domain: ctx.settings.domain,
    siteName: ctx.settings.title,
    fileUrl: (key) => ctx.files.url(key),
    assets: newAssets(),
  };
}

/** The static (first-frame) image: the pages have no hover to start an animation. */
function imageUrl(w: WebContext, ref: ImageRef | null, missingPath: string): string {
  if (ref === null) return `${w.publicUrl}${missingPath}`;
  return ref.kind === "remote" ? ref.staticUrl : w.fileUrl(ref.staticKey);
}

/** The avatar URL, recorded for the CSP; the default image when the stored one is unusable. */
export function avatarUrl(w: WebContext, account: Account): string {
  const url = useImage(w.assets, imageUrl(w, account.avatar, MISSING_AVATAR_PATH));
  return url ?? `${w.publicUrl}${MISSING_AVATAR_PATH}`;
}

export function headerUrl(w: WebContext, account: Account): string {
  const url = useImage(w.assets, imageUrl(w, account.header, MISSING_HEADER_PATH));
  return url ?? `${w.publicUrl}${MISSING_HEADER_PATH}`;
}

export function emojiUrl(w: WebContext): (emoji: CustomEmoji) => string {
  return (emoji) => useImage(w.assets, emojiImageUrl(emoji, w.fileUrl, "static")) ?? "data:,";
}

/** `@user@domain`, local accounts included, as Mastodon's pages show it. */
export function fullHandle(w: Pick<WebContext, "domain">, account: Account): string {
  return `@${account.username}@${account.domain ?? w.domain}`;
}

/** The name to show: the display name, or the username when it is blank. */
export function shownName(account: Account): string {
  return account.displayName.trim() === "" ? account.username : account.displayName;
}
