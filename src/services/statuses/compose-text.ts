// Shared by posting and editing: turns what the author typed into the stored form — checked
// against the character limit, rendered to HTML with the mentioned accounts resolved, and the
// mention ids and tags drawn out of it.

import type { Account } from "../../domain/account.ts";
import { unprocessable } from "../../domain/errors.ts";
import {
  countStatusCharacters,
  extractMentions,
  extractTags,
  normalizeStatusText,
  type ResolvedMention,
  statusTextToHtml,
} from "../../domain/text/status-text.ts";
import type { ServiceContext } from "../context.ts";
import { isDomainBlocked } from "../domain-blocks/domain-blocks.ts";

export interface ComposedText {
  text: string;
  contentHtml: string;
  spoilerText: string;
  mentionIds: string[];
  tags: string[];
}

/**
 * The account a mention names: a local account, a remote one this server has a record of, or
 * else an unknown `user@host` looked up over WebFinger (ctx.remote), which stores its record.
 * A mention nobody answers for, of a suspended account or of a blocked domain stays plain
 * text; a failing lookup never fails the post.
 */
async function resolveMention(
  ctx: ServiceContext,
  username: string,
  domain: string | null,
): Promise<Account | undefined> {
  // Our domain may carry a port (`host:8080`); a mention may spell it with or without.
  const ours = ctx.settings.domain.toLowerCase();
  const local = domain === null || domain === ours || domain === ours.replace(/:\d+$/, "");
  if (local) return ctx.storage.accounts.findByUsername(username, null);
  // A suspended account or a blocked domain is not mentioned (Mastodon leaves it as text).
  if (await isDomainBlocked(ctx, domain)) return undefined;
  const known = await ctx.storage.accounts.findByUsername(username, domain);
  const found =
    known ?? (await ctx.remote.resolveAccount(`${username}@${domain}`).catch(() => undefined));
  return found?.suspended ? undefined : found;
}

export interface TextInput {
  text: string;
  spoilerText: string;
  hasMedia: boolean;
}

/**
 * The text's rules alone (not blank without media, within the character limit), with no lookup:
 * scheduling checks them when asked, composing again when the status is made.
 */
export function checkText(
  ctx: ServiceContext,
  input: TextInput,
): { text: string; spoilerText: string } {
  const text = normalizeStatusText(input.text);
  const spoilerText = input.spoilerText.trim();
  if (text === "" && !input.hasMedia) throw unprocessable("Validation failed: Text can't be blank");
  const limit = ctx.settings.maxStatusCharacters;
  if (countStatusCharacters(text, spoilerText) > limit) {
    throw unprocessable(`Validation failed: Text character limit of ${limit} exceeded`);
  }
  return { text, spoilerText };
}

export async function composeText(ctx: ServiceContext, input: TextInput): Promise<ComposedText> {
  const { text, spoilerText } = checkText(ctx, input);

  const mentioned = extractMentions(text);
  const found = await Promise.all(
    mentioned.map(async (m) => [m, await resolveMention(ctx, m.username, m.domain)] as const),
  );
  const accounts = found.flatMap(([m, account]) => (account ? [{ m, account }] : []));
  // Mastodon shows the bare username unless two mentioned accounts share it.
  const usernameUses = new Map<string, number>();
  for (const { account } of accounts) {
    const key = account.username.toLowerCase();
    usernameUses.set(key, (usernameUses.get(key) ?? 0) + 1);
  }
  const links = new Map<string, ResolvedMention>();
  for (const { m, account } of accounts) {
    const ambiguous = (usernameUses.get(account.username.toLowerCase()) ?? 0) > 1;
    const display =
      ambiguous && account.domain !== null
        ? `${account.username}@${account.domain}`
        : account.username;
    links.set(m.acct, { url: account.url, display });
  }

  const publicUrl = ctx.settings.publicUrl;
  return {
    text,
    spoilerText,
    contentHtml: statusTextToHtml(text, {
      mentions: links,
      tagUrl: (name) => `${publicUrl}/tags/${encodeURIComponent(name)}`,
    }),
    mentionIds: [...new Set(accounts.map(({ account }) => account.id))],
    tags: extractTags(text),
  };
}

/** ISO 639 code (with an optional region, as Mastodon's `zh-TW`), or null when not one. */
export function normalizeLanguage(value: string | null | undefined): string | null {
  if (!value) return null;
  const match = /^([a-z]{2,3})(?:[-_]([a-z]{2,4}))?$/i.exec(value.trim());
  if (!match) return null;
  const base = (match[1] as string).toLowerCase();
  return match[2] ? `${base}-${match[2].toUpperCase()}` : base;
}
