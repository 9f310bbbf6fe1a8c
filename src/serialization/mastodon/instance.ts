// InstanceView → Mastodon's Instance entities: version 2 (GET /api/v2/instance) and the older
// version 1 (GET /api/v1/instance), plus the Rule entity. Pure.

import type { Rule } from "../../domain/instance-rules.ts";
import { INSTANCE_VERSION, SOURCE_URL } from "../../domain/software.ts";
import { escapeHtml } from "../../domain/text/html.ts";
import type { InstanceView } from "../../views/instance-view.ts";
import { type AccountJson, MISSING_HEADER, serializeAccount, type UrlContext } from "./account.ts";

export interface RuleJson {
  id: string;
  text: string;
  hint: string;
}

export function serializeRules(rules: readonly Rule[]): RuleJson[] {
  return rules.map((rule) => ({ id: rule.id, text: rule.text, hint: rule.hint }));
}

/** The streaming API lives on the same origin, over WebSockets. */
function streamingUrl(publicUrl: string): string {
  return publicUrl.replace(/^http/, "ws");
}

/** Sign-ups without an invite are taken (see services/accounts/sign-up.ts). */
function registrationsEnabled(view: InstanceView): boolean {
  return view.settings.registrations !== "closed";
}

/** They wait for a moderator's approval. */
function approvalRequired(view: InstanceView): boolean {
  return view.settings.registrations === "approval";
}

function thumbnailUrl(view: InstanceView): string {
  return `${view.settings.publicUrl}${MISSING_HEADER}`;
}

function mediaConfiguration(view: InstanceView) {
  const { limits } = view;
  return {
    supported_mime_types: [...limits.supportedMimeTypes],
    description_limit: limits.descriptionLimit,
    image_size_limit: limits.imageSizeLimit,
    image_matrix_limit: limits.imageMatrixLimit,
    video_size_limit: limits.videoSizeLimit,
    video_frame_rate_limit: limits.videoFrameRateLimit,
    video_matrix_limit: limits.videoMatrixLimit,
  };
}

function statusesConfiguration(view: InstanceView) {
  return {
    max_characters: view.limits.maxStatusCharacters,
    max_media_attachments: view.limits.maxMediaAttachments,
    characters_reserved_per_url: view.limits.charactersReservedPerUrl,
  };
}

function pollsConfiguration(view: InstanceView) {
  const { polls } = view.limits;
  return {
    max_options: polls.maxOptions,
    max_characters_per_option: polls.maxCharactersPerOption,
    min_expiration: polls.minExpiration,
    max_expiration: polls.maxExpiration,
  };
}

function contactEmail(view: InstanceView): { email?: string } {
  return view.contactEmail === undefined ? {} : { email: view.contactEmail };
}

function contactAccount(view: InstanceView, urls: UrlContext): AccountJson | null {
  return view.contactAccount ? serializeAccount(view.contactAccount, urls) : null;
}

export function serializeInstanceV2(view: InstanceView, urls: UrlContext) {
  const { settings, limits } = view;
  return {
    domain: settings.domain,
    title: settings.title,
    version: INSTANCE_VERSION,
    source_url: SOURCE_URL,
    description: settings.description,
    usage: { users: { active_month: view.activeMonth } },
    thumbnail: { url: thumbnailUrl(view), blurhash: null, versions: {} },
    icon: [],
    languages: ["en"],
    configuration: {
      urls: {
        streaming: streamingUrl(settings.publicUrl),
        status: null,
        about: null,
        privacy_policy: null,
        terms_of_service: null,
      },
      vapid: { public_key: view.vapidPublicKey },
      accounts: {
        max_featured_tags: limits.maxFeaturedTags,
        max_pinned_statuses: limits.maxPinnedStatuses,
        max_display_name_length: limits.maxDisplayNameLength,
        max_note_length: limits.maxNoteLength,
        max_profile_fields: limits.maxProfileFields,
        profile_field_name_limit: limits.profileFieldNameLimit,
        profile_field_value_limit: limits.profileFieldValueLimit,
      },
      statuses: statusesConfiguration(view),
      media_attachments: mediaConfiguration(view),
      polls: pollsConfiguration(view),
      translation: { enabled: view.translationEnabled },
    },
    registrations: {
      enabled: registrationsEnabled(view),
      approval_required: approvalRequired(view),
      // Wren asks every sign-up that waits for approval why they want to join.
      reason_required: approvalRequired(view),
      // Mastodon's closed-registrations message and external sign-up URL: neither is set here.
      message: null,
      url: null,
      min_age: null,
    },
    api_versions: { mastodon: 2 },
    // No address at all (no setting, no admin) leaves `email` out rather than send "".
    contact: { ...contactEmail(view), account: contactAccount(view, urls) },
    rules: serializeRules(view.rules),
  };
}

export function serializeInstanceV1(view: InstanceView, urls: UrlContext) {
  const { settings, limits } = view;
  return {
    uri: settings.domain,
    title: settings.title,
    short_description: settings.description,
    // v1 `description` is HTML; the setting is plain text.
    description: escapeHtml(settings.description),
    ...contactEmail(view),
    version: INSTANCE_VERSION,
    urls: { streaming_api: streamingUrl(settings.publicUrl) },
    stats: {
      user_count: view.userCount,
      status_count: view.statusCount,
      domain_count: view.domainCount,
    },
    thumbnail: thumbnailUrl(view),
    languages: ["en"],
    registrations: registrationsEnabled(view),
    approval_required: approvalRequired(view),
    // Whether users may make invites (Mastodon's min_invite_role): only the operator makes them,
    // with `wren invite create`.
    invites_enabled: false,
    configuration: {
      accounts: { max_featured_tags: limits.maxFeaturedTags },
      statuses: statusesConfiguration(view),
      media_attachments: mediaConfiguration(view),
      polls: pollsConfiguration(view),
    },
    contact_account: contactAccount(view, urls),
    rules: serializeRules(view.rules),
  };
}
