// POST /api/v1/statuses/:id/translate and GET /api/v1/instance/translation_languages, as
// Mastodon's TranslateStatusService and TranslationService::LibreTranslate do them: the status's
// content, content warning, poll options and media descriptions go to the service in one
// request; only language pairs the service offers are translated (a status is never
// "translated" into its own language). The pairs and the translations are kept a day in the
// key–value store, shared by every process (expired entries are pruned by the kv-prune job).

import { createHash } from "node:crypto";
import { AppError, forbidden } from "../../domain/errors.ts";
import { escapeHtml } from "../../domain/text/html.ts";
import type { ServiceContext } from "../context.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";
import { type TranslatedText, TranslationUnavailableError, type Translator } from "./translator.ts";

/** Source language → target languages; `und` holds every target (statuses of unknown language). */
export type LanguagePairs = Record<string, string[]>;

export interface StatusTranslation {
  /** The translated content, HTML as the service returned it (serialisation sanitises it). */
  content: string;
  /** The other texts as the service returned them: HTML-escaped text. */
  spoilerText: string;
  poll: { id: string; options: string[] } | null;
  media: { id: string; description: string }[];
  detectedSourceLanguage: string;
  language: string;
  provider: string;
}

const LANGUAGES_KEY = ["wren", "translation", "languages"];
const TRANSLATIONS = ["wren", "translation", "texts"];
/** How long the pairs and each translation are kept (Mastodon keeps both in its cache too). */
const LANGUAGES_TTL_MS = 24 * 60 * 60_000;
const TRANSLATION_TTL_MS = 24 * 60 * 60_000;

/** 503 with the reason, as Mastodon answers when translation cannot be done now. */
function unavailable(message: string): AppError {
  return new AppError(503, message);
}

function translatorOf(ctx: ServiceContext): Translator {
  if (!ctx.translator) throw unavailable("Translation is not configured on this server");
  return ctx.translator;
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TranslationUnavailableError) throw unavailable(error.message);
    throw error;
  }
}

function unexpired(entry: { expiresAt: string | null } | undefined, now: Date): boolean {
  return entry !== undefined && (entry.expiresAt === null || entry.expiresAt > now.toISOString());
}

/**
 * The service's translation of the texts, kept a day by what was asked (the same post asked
 * again by anyone, or another with the same texts, costs the service nothing).
 */
async function translateTexts(
  ctx: ServiceContext,
  translator: Translator,
  texts: string[],
  source: string | null,
  target: string,
): Promise<TranslatedText[]> {
  const digest = createHash("sha256")
    .update(JSON.stringify([source, target, texts]))
    .digest();
  const key = [...TRANSLATIONS, digest.toString("base64url")];
  const now = ctx.clock.now();
  const cached = await ctx.storage.kv.get(key);
  if (unexpired(cached, now) && Array.isArray(cached?.value)) {
    return cached.value as TranslatedText[];
  }
  const results = await guarded(() => translator.translate(texts, source, target));
  await ctx.storage.kv.set({
    key,
    value: results,
    expiresAt: new Date(now.getTime() + TRANSLATION_TTL_MS).toISOString(),
  });
  return results;
}

/** The pairs the configured service offers ({} without one), asked of it at most once a day. */
export async function translationLanguages(ctx: ServiceContext): Promise<LanguagePairs> {
  if (!ctx.translator) return {};
  const now = ctx.clock.now();
  const cached = await ctx.storage.kv.get(LANGUAGES_KEY);
  if (cached && unexpired(cached, now)) return cached.value as LanguagePairs;
  const translator = ctx.translator;
  const languages = await guarded(() => translator.languages());
  const pairs: LanguagePairs = {};
  const every = new Set<string>();
  for (const { code, targets } of languages) {
    pairs[code] = targets.filter((target) => target !== code);
    for (const target of targets) every.add(target);
  }
  pairs.und = [...every].sort();
  await ctx.storage.kv.set({
    key: LANGUAGES_KEY,
    value: pairs,
    expiresAt: new Date(now.getTime() + LANGUAGES_TTL_MS).toISOString(),
  });
  return pairs;
}

export async function translateStatus(
  ctx: ServiceContext,
  viewerId: string,
  statusId: string,
  target: string,
): Promise<StatusTranslation> {
  let status = await loadVisibleStatus(ctx, viewerId, statusId);
  // A reblog carries no text of its own: the boosted status is translated.
  if (status.reblogOfId) status = await loadVisibleStatus(ctx, viewerId, status.reblogOfId);
  const translator = translatorOf(ctx);
  const source = status.language;
  const pairs = await translationLanguages(ctx);
  if (source === target || !pairs[source ?? "und"]?.includes(target)) {
    throw forbidden("This action is not allowed");
  }
  const [poll, media] = await Promise.all([
    status.pollId ? ctx.storage.polls.get(status.pollId) : undefined,
    ctx.storage.media.getMany(status.mediaIds),
  ]);
  const described = status.mediaIds.flatMap((id) => {
    const attachment = media.get(id);
    return attachment?.description ? [{ id, description: attachment.description }] : [];
  });
  // One request, in this order: content, content warning, poll options, media descriptions.
  const texts: string[] = [];
  if (status.contentHtml !== "") texts.push(status.contentHtml);
  if (status.spoilerText !== "") texts.push(escapeHtml(status.spoilerText));
  const options = poll?.options.map((option) => escapeHtml(option.title)) ?? [];
  texts.push(...options, ...described.map((m) => escapeHtml(m.description)));
  const results =
    texts.length === 0 ? [] : await translateTexts(ctx, translator, texts, source, target);
  let next = 0;
  const take = (present: boolean): string => (present ? (results[next++]?.text ?? "") : "");
  const content = take(status.contentHtml !== "");
  const spoilerText = take(status.spoilerText !== "");
  return {
    content,
    spoilerText,
    poll: poll ? { id: poll.id, options: options.map(() => take(true)) } : null,
    media: described.map((m) => ({ id: m.id, description: take(true) })),
    detectedSourceLanguage: results[0]?.detectedSourceLanguage ?? source ?? "und",
    language: target,
    provider: translator.provider,
  };
}
