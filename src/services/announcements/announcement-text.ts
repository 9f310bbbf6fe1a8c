// An announcement's text → its HTML and the facts drawn from it, rendered like a status (links,
// mentions of accounts this server knows, hashtags), without a status's length limit: Mastodon
// puts none on announcements.

import type { Account } from "../../domain/account.ts";
import { unprocessable } from "../../domain/errors.ts";
import {
  extractMentions,
  extractTags,
  normalizeStatusText,
  type ResolvedMention,
  statusTextToHtml,
} from "../../domain/text/status-text.ts";
import type { ServiceContext } from "../context.ts";

/** A generous bound (Mastodon has none) so one request cannot store megabytes of text. */
export const ANNOUNCEMENT_MAX_CHARACTERS = 10_000;

export interface RenderedAnnouncementText {
  text: string;
  contentHtml: string;
  mentionIds: string[];
  tags: string[];
}

async function findAccount(
  ctx: ServiceContext,
  username: string,
  domain: string | null,
): Promise<Account | undefined> {
  // Our own domain (with or without its port) names a local account.
  const ours = ctx.settings.domain.toLowerCase();
  const local = domain === null || domain === ours || domain === ours.replace(/:\d+$/, "");
  return ctx.storage.accounts.findByUsername(username, local ? null : domain);
}

export async function renderAnnouncementText(
  ctx: ServiceContext,
  input: string,
): Promise<RenderedAnnouncementText> {
  const text = normalizeStatusText(input);
  if (text === "") throw unprocessable("Validation failed: Text can't be blank");
  if (text.length > ANNOUNCEMENT_MAX_CHARACTERS) {
    throw unprocessable(
      `Validation failed: Text is too long (maximum is ${ANNOUNCEMENT_MAX_CHARACTERS} characters)`,
    );
  }
  const mentions = new Map<string, ResolvedMention>();
  const mentionIds: string[] = [];
  for (const m of extractMentions(text)) {
    const account = await findAccount(ctx, m.username, m.domain);
    if (!account) continue;
    mentions.set(m.acct, { url: account.url, display: account.username });
    if (!mentionIds.includes(account.id)) mentionIds.push(account.id);
  }
  const publicUrl = ctx.settings.publicUrl;
  return {
    text,
    contentHtml: statusTextToHtml(text, {
      mentions,
      tagUrl: (name) => `${publicUrl}/tags/${encodeURIComponent(name)}`,
    }),
    mentionIds,
    tags: extractTags(text),
  };
}
