// PATCH /api/v1/accounts/update_credentials: the owner edits their profile and posting defaults.
// All-or-nothing: every field is validated and the images are processed before anything is
// written; new image files are removed again if the record cannot be saved, and replaced image
// files are removed only after the record points at the new ones.

import {
  type Account,
  type AccountField,
  DISPLAY_NAME_MAX_LENGTH,
  FIELD_NAME_MAX_LENGTH,
  FIELD_VALUE_MAX_LENGTH,
  type ImageRef,
  MAX_PROFILE_FIELDS,
  NOTE_MAX_LENGTH,
  type Visibility,
} from "../../domain/account.ts";
import type { QuotePolicy } from "../../domain/quote.ts";
import {
  fieldValueToHtml,
  normalizeNewlines,
  plainTextToHtml,
} from "../../domain/text/plain-text.ts";
import type { User } from "../../domain/user.ts";
import {
  discardProfileImage,
  type ProcessedProfileImage,
  processProfileImage,
  storeProfileImage,
} from "../../media/profile-images.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";
import { acceptPendingFollowRequests } from "../graph/accept-pending-requests.ts";
import { charLength, startValidation, tooLong } from "./validation.ts";

export interface UpdateCredentialsInput {
  displayName?: string | undefined;
  note?: string | undefined;
  locked?: boolean | undefined;
  bot?: boolean | undefined;
  discoverable?: boolean | undefined;
  indexable?: boolean | undefined;
  /** Replaces every field; entries with a blank name and value are dropped, as in Mastodon. */
  fields?: { name: string; value: string }[] | undefined;
  privacy?: Visibility | undefined;
  sensitive?: boolean | undefined;
  /** The default quote policy of new posts (`source[quote_policy]`). */
  quotePolicy?: QuotePolicy | undefined;
  /** An ISO 639 code, or null to clear the default language. */
  language?: string | null | undefined;
  avatar?: Uint8Array | undefined;
  header?: Uint8Array | undefined;
}

const LANGUAGE_PATTERN = /^[a-z]{2,3}$/;

function buildFields(
  input: { name: string; value: string }[],
  previous: readonly AccountField[],
): AccountField[] {
  return input
    .map((f) => ({ name: f.name.trim(), value: f.value.trim() }))
    .filter((f) => f.name !== "" || f.value !== "")
    .map((f) => ({
      name: f.name,
      value: f.value,
      valueHtml: fieldValueToHtml(f.value),
      // A verification stays valid while the value it verified is unchanged.
      verifiedAt: previous.find((p) => p.value === f.value)?.verifiedAt ?? null,
    }));
}

export async function updateCredentials(
  ctx: ServiceContext,
  accountId: string,
  input: UpdateCredentialsInput,
): Promise<{ account: Account; user: User }> {
  const [current, user] = await Promise.all([
    ctx.storage.accounts.get(accountId),
    ctx.storage.users.get(accountId),
  ]);
  if (!current || !user) throw new Error(`Local account ${accountId} has no user record`);

  const validation = startValidation();
  const displayName = input.displayName?.trim();
  if (displayName !== undefined && charLength(displayName) > DISPLAY_NAME_MAX_LENGTH) {
    validation.add("display_name", "ERR_TOO_LONG", tooLong(DISPLAY_NAME_MAX_LENGTH));
  }
  const note = input.note === undefined ? undefined : normalizeNewlines(input.note).trim();
  if (note !== undefined && charLength(note) > NOTE_MAX_LENGTH) {
    validation.add("note", "ERR_TOO_LONG", tooLong(NOTE_MAX_LENGTH));
  }
  const fields = input.fields === undefined ? undefined : buildFields(input.fields, current.fields);
  if (fields) {
    if (fields.length > MAX_PROFILE_FIELDS) {
      validation.add("fields", "ERR_TOO_LONG", tooLong(MAX_PROFILE_FIELDS, "fields"));
    }
    if (fields.some((f) => charLength(f.name) > FIELD_NAME_MAX_LENGTH)) {
      validation.add("fields.name", "ERR_TOO_LONG", tooLong(FIELD_NAME_MAX_LENGTH));
    }
    if (fields.some((f) => charLength(f.value) > FIELD_VALUE_MAX_LENGTH)) {
      validation.add("fields.value", "ERR_TOO_LONG", tooLong(FIELD_VALUE_MAX_LENGTH));
    }
  }
  const language = input.language === "" ? null : input.language?.trim().toLowerCase();
  if (language && !LANGUAGE_PATTERN.test(language)) {
    validation.add("source.language", "ERR_INCLUSION", "is not included in the list");
  }
  validation.check();

  // Images last among the checks (they are the slow part), still before any write.
  const maxBytes = ctx.settings.maxImageBytes;
  const processed: ProcessedProfileImage[] = [];
  if (input.avatar) processed.push(await processProfileImage(input.avatar, "avatar", { maxBytes }));
  if (input.header) processed.push(await processProfileImage(input.header, "header", { maxBytes }));

  const stored: { kind: "avatar" | "header"; ref: ImageRef }[] = [];
  let saved = false;
  try {
    for (const image of processed) {
      stored.push({ kind: image.kind, ref: await storeProfileImage(ctx.files, accountId, image) });
    }
    const next: Account = {
      ...current,
      ...(displayName !== undefined ? { displayName } : {}),
      ...(note !== undefined ? { note, noteHtml: plainTextToHtml(note) } : {}),
      ...(input.locked !== undefined ? { locked: input.locked } : {}),
      ...(input.bot !== undefined ? { bot: input.bot } : {}),
      ...(input.discoverable !== undefined ? { discoverable: input.discoverable } : {}),
      ...(input.indexable !== undefined ? { indexable: input.indexable } : {}),
      ...(fields !== undefined ? { fields } : {}),
      updatedAt: ctx.clock.now().toISOString(),
    };
    for (const { kind, ref } of stored) next[kind] = ref;
    const nextUser: User = {
      ...user,
      ...(input.privacy !== undefined ? { defaultVisibility: input.privacy } : {}),
      ...(input.sensitive !== undefined ? { defaultSensitive: input.sensitive } : {}),
      ...(language !== undefined ? { defaultLanguage: language } : {}),
      ...(input.quotePolicy !== undefined ? { defaultQuotePolicy: input.quotePolicy } : {}),
    };
    const userChanged =
      input.privacy !== undefined ||
      input.sensitive !== undefined ||
      language !== undefined ||
      input.quotePolicy !== undefined;
    // Recorded before the profile (ADR 0013): a crash after it still sends the Update.
    await publishAround(ctx.events, { type: "account.updated", account: next }, async () => {
      if (userChanged) await ctx.storage.users.put(nextUser);
      await ctx.storage.accounts.put(next);
      saved = true;
    });
    if (current.locked && !next.locked) await acceptPendingFollowRequests(ctx, accountId);
    for (const { kind } of stored) {
      await discardProfileImage(ctx.files, current[kind]).catch(() => undefined);
    }
    return { account: next, user: nextUser };
  } catch (error) {
    if (saved) throw error;
    for (const { ref } of stored) await discardProfileImage(ctx.files, ref).catch(() => undefined);
    throw error;
  }
}
