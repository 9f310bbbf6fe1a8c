// InstanceView → Mastodon's Instance entities: version 2 (GET /api/v2/instance) and the older
// version 1 (GET /api/v1/instance), plus the Rule entity. Pure.

import type { Rule } from "../../domain/instance-rules.ts";
import { INSTANCE_VERSION, MASTODON_API_VERSION, SOURCE_URL } from "../../domain/software.ts";
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

/**
 * Where clients open the streaming API (they add /api/v1/streaming): the configured address, or
 * the public URL's origin over WebSockets, where Wren serves it (http/streaming/).
 */
function streamingUrl(settings: InstanceView["settings"]): string {
  return settings.streamingUrl ?? settings.publicUrl.replace(/^http/, "ws");
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

/**
 * The entity's `email` is a required string, and apps decode it strictly: with no setting and no
 * admin it is "" (as Mastodon sends when its contact address is unset), never missing.
 */
function contactEmail(view: InstanceView): { email: string } {
  return { email: view.contactEmail ?? "" };
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
        streaming: streamingUrl(settings),
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
    api_versions: { mastodon: MASTODON_API_VERSION },
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
    urls: { streaming_api: streamingUrl(settings) },
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
