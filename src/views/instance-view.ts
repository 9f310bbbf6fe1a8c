// Everything the instance endpoints describe, gathered in one place: the settings, the limits
// the server really enforces (imported from where they are enforced), and the counters.

import {
  DISPLAY_NAME_MAX_LENGTH,
  FIELD_NAME_MAX_LENGTH,
  FIELD_VALUE_MAX_LENGTH,
  MAX_PROFILE_FIELDS,
  NOTE_MAX_LENGTH,
} from "../domain/account.ts";
import type { Rule } from "../domain/instance-rules.ts";
import { CHARACTERS_PER_URL } from "../domain/text/status-text.ts";
import { isApproved, isConfirmed } from "../domain/user.ts";
import {
  IMAGE_MATRIX_LIMIT,
  MEDIA_DESCRIPTION_LIMIT,
  SUPPORTED_MEDIA_TYPES,
  VIDEO_FRAME_RATE_LIMIT,
  VIDEO_MATRIX_LIMIT,
  VIDEO_SIZE_LIMIT,
} from "../media/limits.ts";
import type { InstanceSettings, ServiceContext } from "../services/context.ts";
import { currentRules } from "../services/instance/rules.ts";
import { vapidKeys } from "../services/push/vapid-keys.ts";
import { type AccountView, loadAccountView } from "./account-view.ts";

/**
 * Poll limits (Mastodon's values). The poll work enforces these; when it gets its own domain
 * module, import the constants from there instead.
 */
export const POLL_LIMITS = {
  maxOptions: 4,
  maxCharactersPerOption: 50,
  minExpiration: 300,
  maxExpiration: 2_629_746,
};

/** Mastodon's defaults for features Wren does not offer yet, announced as their limits. */
export const ACCOUNT_LIMITS = { maxFeaturedTags: 10, maxPinnedStatuses: 5 };

export interface InstanceLimits {
  maxStatusCharacters: number;
  maxMediaAttachments: number;
  charactersReservedPerUrl: number;
  maxDisplayNameLength: number;
  maxNoteLength: number;
  maxProfileFields: number;
  profileFieldNameLimit: number;
  profileFieldValueLimit: number;
  maxFeaturedTags: number;
  maxPinnedStatuses: number;
  supportedMimeTypes: readonly string[];
  imageSizeLimit: number;
  imageMatrixLimit: number;
  videoSizeLimit: number;
  videoFrameRateLimit: number;
  videoMatrixLimit: number;
  descriptionLimit: number;
  polls: typeof POLL_LIMITS;
}

export interface InstanceView {
  settings: InstanceSettings;
  limits: InstanceLimits;
  userCount: number;
  statusCount: number;
  domainCount: number;
  activeMonth: number;
  contactAccount: AccountView | null;
  /** The setting, else the contact admin's email; none without either. */
  contactEmail: string | undefined;
  rules: Rule[];
  /** Whether a translation service is configured (statuses can be translated). */
  translationEnabled: boolean;
  /** The public VAPID key apps subscribe to Web Push with. */
  vapidPublicKey: string;
}

export function instanceLimits(settings: InstanceSettings): InstanceLimits {
  return {
    maxStatusCharacters: settings.maxStatusCharacters,
    maxMediaAttachments: settings.maxMediaAttachments,
    charactersReservedPerUrl: CHARACTERS_PER_URL,
    maxDisplayNameLength: DISPLAY_NAME_MAX_LENGTH,
    maxNoteLength: NOTE_MAX_LENGTH,
    maxProfileFields: MAX_PROFILE_FIELDS,
    profileFieldNameLimit: FIELD_NAME_MAX_LENGTH,
    profileFieldValueLimit: FIELD_VALUE_MAX_LENGTH,
    maxFeaturedTags: ACCOUNT_LIMITS.maxFeaturedTags,
    maxPinnedStatuses: ACCOUNT_LIMITS.maxPinnedStatuses,
    supportedMimeTypes: SUPPORTED_MEDIA_TYPES,
    imageSizeLimit: settings.maxImageBytes,
    imageMatrixLimit: IMAGE_MATRIX_LIMIT,
    videoSizeLimit: VIDEO_SIZE_LIMIT,
    videoFrameRateLimit: VIDEO_FRAME_RATE_LIMIT,
    videoMatrixLimit: VIDEO_MATRIX_LIMIT,
    descriptionLimit: MEDIA_DESCRIPTION_LIMIT,
    polls: POLL_LIMITS,
  };
}

const ACTIVE_WINDOW_MS = 28 * 24 * 60 * 60 * 1000;

export async function loadInstanceView(ctx: ServiceContext): Promise<InstanceView> {
  const { storage } = ctx;
  const [users, statusCount, domains, rules, vapid] = await Promise.all([
    storage.users.list(),
    storage.statuses.countLocal(),
    storage.accounts.domains(),
    currentRules(ctx),
    vapidKeys(ctx),
  ]);
  // Active: posted in the last four weeks (Wren keeps no sign-in log). One small read per user.
  const since = ctx.clock.now().getTime() - ACTIVE_WINDOW_MS;
  const newest = await Promise.all(
    users.map((u) => storage.statuses.listByAccount(u.accountId, { limit: 1 })),
  );
  const activeMonth = newest.filter((list) => {
    const at = list[0]?.createdAt;
    return at !== undefined && Date.parse(at) >= since;
  }).length;

  // The contact account is the longest-standing owner or admin.
  const admin = users
    .filter((u) => (u.role === "owner" || u.role === "admin") && !u.disabled)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0];
  const adminAccount = admin ? await storage.accounts.get(admin.accountId) : undefined;

  return {
    settings: ctx.settings,
    limits: instanceLimits(ctx.settings),
    // Sign-ups still waiting for approval or confirmation are nobody yet (as on Mastodon).
    userCount: users.filter((u) => isApproved(u) && isConfirmed(u)).length,
    statusCount,
    domainCount: domains.length,
    activeMonth,
    contactAccount: adminAccount ? await loadAccountView(ctx, adminAccount) : null,
    contactEmail: ctx.settings.contactEmail ?? admin?.email,
    rules,
    translationEnabled: ctx.translator !== undefined,
    vapidPublicKey: vapid.publicKey,
  };
}
