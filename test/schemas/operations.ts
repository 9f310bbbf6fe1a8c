/**
 * Which entity each Mastodon API operation answers, per success status, written from the
 * method pages of Mastodon's documentation (content/en/methods/*.md). Tests validate a
 * response with `assertMatchesResponse(method, path, status, body)`, which finds the row
 * here. Error statuses are not listed: every 4xx/5xx body is an Error entity (see
 * `errorResponses` for the few with a richer body).
 *
 * A status mapped to `EMPTY` is documented with an empty object or no JSON body: a test must
 * check such a body itself. Operations Wren does not serve and whose entities it never
 * produces are left out; add a row (and the entity under entities/) when Wren grows one.
 */
import {
  arrayOf,
  boolean,
  entity,
  integer,
  nullable,
  object,
  oneOf,
  type Schema,
  string,
  uri,
} from "./json-schema.ts";

/** Documented without a JSON body worth a schema (e.g. `{}` on success). */
export const EMPTY: unique symbol = Symbol("documented without a JSON body");

export type ResponseBody = Schema | typeof EMPTY;

export interface OperationRow {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Path template with `{param}` segments, as Mastodon's documentation writes it. */
  template: string;
  /** A stable name for the operation, as Mastodon's OpenAPI description names it. */
  operationId: string;
  /** Success status → body. */
  responses: Readonly<Record<number, ResponseBody>>;
  /** Error status → body, only where it is richer than an Error entity. */
  errorResponses?: Readonly<Record<number, Schema>>;
}

const one = entity;
const many = (name: string): Schema => arrayOf(entity(name));
const strings = arrayOf(string);
/** GET/POST /api/v1/markers: the markers by timeline name. */
const markers: Schema = {
  type: "object",
  propertyNames: { enum: ["home", "notifications"] },
  additionalProperties: entity("Marker"),
};
/** GET /api/v1/instance/activity: one week, every figure a string (the week's start in Unix seconds). */
const activityWeek = object({
  week: { type: "string", pattern: "^[0-9]+$" },
  statuses: { type: "string", pattern: "^[0-9]+$" },
  logins: { type: "string", pattern: "^[0-9]+$" },
  registrations: { type: "string", pattern: "^[0-9]+$" },
});
/** GET /api/v1/instance/translation_languages: source language → target languages. */
const translationLanguages: Schema = { type: "object", additionalProperties: strings };
/** GET /api/v1/instance/languages: the languages apps offer for a post. */
const postingLanguages: Schema = {
  type: "array",
  items: object({ code: { type: "string", pattern: "^[a-z]{2}$" }, name: { type: "string" } }),
};
/** GET /api/v1/annual_reports/:year/state. */
const annualReportState = object({
  state: oneOf("available", "generating", "eligible", "ineligible"),
});
/** GET /api/v1_alpha/async_refreshes/:id. */
const asyncRefresh = object({ async_refresh: entity("AsyncRefresh") });
/** The unread_count answers. */
const count = object({ count: integer });
/** RFC 8414 authorization server metadata (GET /.well-known/oauth-authorization-server). */
const oauthServerMetadata = object(
  {
    issuer: uri,
    authorization_endpoint: uri,
    token_endpoint: uri,
    revocation_endpoint: uri,
    scopes_supported: strings,
    response_types_supported: strings,
    grant_types_supported: strings,
    token_endpoint_auth_methods_supported: strings,
  },
  {
    service_documentation: uri,
    userinfo_endpoint: uri,
    app_registration_endpoint: uri,
    code_challenge_methods_supported: strings,
    response_modes_supported: strings,
  },
);

/** GET /api/oembed: oEmbed 1.0 "rich" metadata (content/en/methods/oembed.md). */
const oembed = object(
  {
    type: oneOf("rich"),
    version: oneOf("1.0"),
    author_name: string,
    author_url: uri,
    provider_name: string,
    provider_url: uri,
    cache_age: integer,
    html: string,
    width: integer,
    height: nullable(integer),
  },
  { title: string },
);

type Row = [OperationRow["method"], string, string, OperationRow["responses"]];

// [method, template, operationId, success status → body]
const rows: Row[] = [
  [
    "get",
    "/.well-known/oauth-authorization-server",
    "getWellKnownOauthAuthorizationServer",
    { 200: oauthServerMetadata },
  ],
  ["get", "/oauth/authorize", "getOauthAuthorize", { 200: EMPTY }],
  ["post", "/oauth/token", "postOauthToken", { 200: one("Token") }],
  ["post", "/oauth/revoke", "postOauthRevoke", { 200: EMPTY }],
  ["get", "/oauth/userinfo", "getOauthUserinfo", { 200: EMPTY }],
  ["post", "/api/v1/apps", "createApp", { 200: one("CredentialApplication") }],
  [
    "get",
    "/api/v1/apps/verify_credentials",
    "getAppsVerifyCredentials",
    { 200: one("Application") },
  ],

  // Accounts
  ["post", "/api/v1/accounts", "createAccount", { 200: one("Token") }],
  ["post", "/api/v1/emails/confirmations", "createEmailConfirmations", { 200: EMPTY }],
  ["get", "/api/v1/accounts", "getAccounts", { 200: many("Account") }],
  [
    "get",
    "/api/v1/accounts/verify_credentials",
    "getAccountsVerifyCredentials",
    { 200: one("CredentialAccount") },
  ],
  [
    "patch",
    "/api/v1/accounts/update_credentials",
    "patchAccountsUpdateCredentials",
    { 200: one("CredentialAccount") },
  ],
  ["get", "/api/v1/profile", "getProfile", { 200: one("Profile") }],
  ["patch", "/api/v1/profile", "updateProfile", { 200: one("Profile") }],
  ["delete", "/api/v1/profile/avatar", "deleteAvatar", { 200: one("CredentialAccount") }],
  ["delete", "/api/v1/profile/header", "deleteProfileHeader", { 200: one("CredentialAccount") }],
  ["get", "/api/v1/accounts/{id}", "getAccount", { 200: one("Account") }],
  ["get", "/api/v1/accounts/{id}/statuses", "getAccountStatuses", { 200: many("Status") }],
  // Removed with Keybase proofs; still answered, always with an empty list.
  [
    "get",
    "/api/v1/accounts/{id}/identity_proofs",
    "getAccountIdentityProofs",
    { 200: { type: "array", maxItems: 0 } },
  ],
  ["get", "/api/v1/accounts/{id}/followers", "getAccountFollowers", { 200: many("Account") }],
  ["get", "/api/v1/accounts/{id}/following", "getAccountFollowing", { 200: many("Account") }],
  ["get", "/api/v1/accounts/{id}/lists", "getAccountLists", { 200: many("List") }],
  ["get", "/api/v1/accounts/{id}/endorsements", "getAccountEndorsements", { 200: many("Account") }],
  [
    "get",
    "/api/v1/accounts/{account_id}/collections",
    "getAccountCollections",
    { 200: one("Collections") },
  ],
  [
    "get",
    "/api/v1/accounts/{account_id}/in_collections",
    "getAccountInCollections",
    { 200: one("Collections") },
  ],
  ["post", "/api/v1/accounts/{id}/follow", "postAccountFollow", { 200: one("Relationship") }],
  ["post", "/api/v1/accounts/{id}/unfollow", "postAccountUnfollow", { 200: one("Relationship") }],
  [
    "post",
    "/api/v1/accounts/{id}/remove_from_followers",
    "postAccountRemoveFromFollowers",
    { 200: one("Relationship") },
  ],
  ["post", "/api/v1/accounts/{id}/block", "postAccountBlock", { 200: one("Relationship") }],
  ["post", "/api/v1/accounts/{id}/unblock", "postAccountUnblock", { 200: one("Relationship") }],
  ["post", "/api/v1/accounts/{id}/mute", "postAccountMute", { 200: one("Relationship") }],
  ["post", "/api/v1/accounts/{id}/unmute", "postAccountUnmute", { 200: one("Relationship") }],
  ["post", "/api/v1/accounts/{id}/pin", "postAccountPin", { 200: one("Relationship") }],
  ["post", "/api/v1/accounts/{id}/unpin", "postAccountUnpin", { 200: one("Relationship") }],
  ["post", "/api/v1/accounts/{id}/endorse", "postAccountEndorse", { 200: one("Relationship") }],
  ["post", "/api/v1/accounts/{id}/unendorse", "postAccountUnendorse", { 200: one("Relationship") }],
  ["post", "/api/v1/accounts/{id}/note", "postAccountNote", { 200: one("Relationship") }],
  [
    "get",
    "/api/v1/accounts/relationships",
    "getAccountRelationships",
    { 200: many("Relationship") },
  ],
  [
    "get",
    "/api/v1/accounts/familiar_followers",
    "getAccountsFamiliarFollowers",
    { 200: many("FamiliarFollowers") },
  ],
  ["get", "/api/v1/accounts/search", "getAccountSearch", { 200: many("Account") }],
  ["get", "/api/v1/accounts/lookup", "getAccountLookup", { 200: one("Account") }],
  ["get", "/api/v1/blocks", "getBlocks", { 200: many("Account") }],
  ["get", "/api/v1/mutes", "getMutes", { 200: many("MutedAccount") }],
  ["get", "/api/v1/domain_blocks", "getDomainBlocks", { 200: strings }],
  ["post", "/api/v1/domain_blocks", "createDomainBlock", { 200: EMPTY }],
  ["delete", "/api/v1/domain_blocks", "deleteDomainBlocks", { 200: EMPTY }],
  ["get", "/api/v1/endorsements", "getEndorsements", { 200: many("Account") }],
  ["get", "/api/v1/follow_requests", "getFollowRequests", { 200: many("Account") }],
  [
    "post",
    "/api/v1/follow_requests/{account_id}/authorize",
    "postFollowRequestAuthorize",
    { 200: one("Relationship") },
  ],
  [
    "post",
    "/api/v1/follow_requests/{account_id}/reject",
    "postFollowRequestReject",
    { 200: one("Relationship") },
  ],
  ["get", "/api/v1/directory", "getDirectory", { 200: many("Account") }],
  ["get", "/api/v1/suggestions", "getSuggestions", { 200: many("Account") }],
  ["get", "/api/v2/suggestions", "getSuggestionsV2", { 200: many("Suggestion") }],
  ["delete", "/api/v1/suggestions/{account_id}", "deleteSuggestion", { 200: EMPTY }],
  ["get", "/api/v1/trends/tags", "getTrendsTags", { 200: many("Tag") }],
  // The pre-3.5 name of the tag trends.
  ["get", "/api/v1/trends", "getTrends", { 200: many("Tag") }],
  ["get", "/api/v1/trends/statuses", "getTrendsStatuses", { 200: many("Status") }],
  // Wren has no preview cards, so no TrendsLink: always an empty list.
  ["get", "/api/v1/trends/links", "getTrendsLinks", { 200: many("PreviewCard") }],

  // Statuses
  [
    "post",
    "/api/v1/statuses",
    "createStatus",
    // A ScheduledStatus when `scheduled_at` lies in the future.
    { 200: { oneOf: [one("Status"), one("ScheduledStatus")] } },
  ],
  ["get", "/api/v1/scheduled_statuses", "getScheduledStatuses", { 200: many("ScheduledStatus") }],
  ["get", "/api/v1/scheduled_statuses/{id}", "getScheduledStatus", { 200: one("ScheduledStatus") }],
  [
    "put",
    "/api/v1/scheduled_statuses/{id}",
    "updateScheduledStatus",
    { 200: one("ScheduledStatus") },
  ],
  ["delete", "/api/v1/scheduled_statuses/{id}", "deleteScheduledStatus", { 200: EMPTY }],
  ["get", "/api/v1/statuses", "getStatuses", { 200: many("Status") }],
  ["get", "/api/v1/statuses/{id}", "getStatus", { 200: one("Status") }],
  ["put", "/api/v1/statuses/{id}", "updateStatus", { 200: one("Status") }],
  ["delete", "/api/v1/statuses/{id}", "deleteStatus", { 200: one("Status") }],
  ["get", "/api/v1/statuses/{id}/context", "getStatusContext", { 200: one("Context") }],
  ["get", "/api/v1/statuses/{id}/history", "getStatusHistory", { 200: many("StatusEdit") }],
  ["get", "/api/v1/statuses/{id}/source", "getStatusSource", { 200: one("StatusSource") }],
  ["post", "/api/v1/statuses/{id}/translate", "postStatusTranslate", { 200: one("Translation") }],
  ["get", "/api/v1/statuses/{id}/reblogged_by", "getStatusRebloggedBy", { 200: many("Account") }],
  ["get", "/api/v1/statuses/{id}/favourited_by", "getStatusFavouritedBy", { 200: many("Account") }],
  ["get", "/api/v1/statuses/{id}/quotes", "getStatusQuotes", { 200: many("Status") }],
  [
    "post",
    "/api/v1/statuses/{id}/quotes/{quoting_status_id}/revoke",
    "postStatusesByIdQuotesByQuotingStatusIdRevoke",
    { 200: one("Status") },
  ],
  ["post", "/api/v1/statuses/{id}/favourite", "postStatusFavourite", { 200: one("Status") }],
  ["post", "/api/v1/statuses/{id}/unfavourite", "postStatusUnfavourite", { 200: one("Status") }],
  ["post", "/api/v1/statuses/{id}/reblog", "postStatusReblog", { 200: one("Status") }],
  ["post", "/api/v1/statuses/{id}/unreblog", "postStatusUnreblog", { 200: one("Status") }],
  ["post", "/api/v1/statuses/{id}/bookmark", "postStatusBookmark", { 200: one("Status") }],
  ["post", "/api/v1/statuses/{id}/unbookmark", "postStatusUnbookmark", { 200: one("Status") }],
  ["post", "/api/v1/statuses/{id}/mute", "postStatusMute", { 200: one("Status") }],
  ["post", "/api/v1/statuses/{id}/unmute", "postStatusUnmute", { 200: one("Status") }],
  ["post", "/api/v1/statuses/{id}/pin", "postStatusPin", { 200: one("Status") }],
  ["post", "/api/v1/statuses/{id}/unpin", "postStatusUnpin", { 200: one("Status") }],
  [
    "put",
    "/api/v1/statuses/{id}/interaction_policy",
    "updateStatusInteractionPolicy",
    { 200: one("Status") },
  ],
  ["post", "/api/v1/media", "createMedia", { 200: one("MediaAttachment") }],
  [
    "post",
    "/api/v2/media",
    "createMediaV2",
    { 200: one("MediaAttachment"), 202: one("MediaAttachment") },
  ],
  ["get", "/api/v1/media/{id}", "getMedia", { 200: one("MediaAttachment"), 206: EMPTY }],
  ["put", "/api/v1/media/{id}", "updateMedia", { 200: one("MediaAttachment") }],
  ["delete", "/api/v1/media/{id}", "deleteMedia", { 200: EMPTY }],
  ["get", "/api/v1/polls/{id}", "getPoll", { 200: one("Poll") }],
  ["post", "/api/v1/polls/{id}/votes", "postPollVotes", { 200: one("Poll") }],

  // Timelines and what a user keeps
  ["get", "/api/v1/timelines/public", "getTimelinePublic", { 200: many("Status") }],
  ["get", "/api/v1/timelines/tag/{hashtag}", "getTimelinesTagByHashtag", { 200: many("Status") }],
  ["get", "/api/v1/timelines/home", "getTimelineHome", { 200: many("Status"), 206: EMPTY }],
  ["get", "/api/v1/timelines/list/{list_id}", "getTimelinesListByListId", { 200: many("Status") }],
  ["get", "/api/v1/timelines/direct", "getTimelineDirect", { 200: many("Status") }],
  ["get", "/api/v1/timelines/link", "getTimelineLink", { 200: many("Status") }],
  ["get", "/api/v1/conversations", "getConversations", { 200: many("Conversation") }],
  ["delete", "/api/v1/conversations/{id}", "deleteConversation", { 200: EMPTY }],
  ["post", "/api/v1/conversations/{id}/read", "postConversationRead", { 200: one("Conversation") }],
  ["get", "/api/v1/lists", "getLists", { 200: many("List") }],
  ["post", "/api/v1/lists", "createList", { 200: one("List") }],
  ["get", "/api/v1/lists/{id}", "getList", { 200: one("List") }],
  ["put", "/api/v1/lists/{id}", "updateList", { 200: one("List") }],
  ["delete", "/api/v1/lists/{id}", "deleteList", { 200: EMPTY }],
  ["get", "/api/v1/lists/{id}/accounts", "getListAccounts", { 200: many("Account") }],
  ["post", "/api/v1/lists/{id}/accounts", "postListAccounts", { 200: EMPTY }],
  ["delete", "/api/v1/lists/{id}/accounts", "deleteListAccounts", { 200: EMPTY }],
  ["post", "/api/v1/collections", "createCollection", { 200: one("WrappedCollection") }],
  ["get", "/api/v1/collections/{id}", "getCollection", { 200: one("CollectionWithAccounts") }],
  ["patch", "/api/v1/collections/{id}", "updateCollection", { 200: one("WrappedCollection") }],
  ["delete", "/api/v1/collections/{id}", "deleteCollection", { 200: EMPTY }],
  [
    "post",
    "/api/v1/collections/{collection_id}/items",
    "postCollectionItems",
    { 200: one("WrappedCollectionItem") },
  ],
  [
    "delete",
    "/api/v1/collections/{collection_id}/items/{id}",
    "deleteCollectionItem",
    { 200: EMPTY },
  ],
  [
    "post",
    "/api/v1/collections/{collection_id}/items/{id}/revoke",
    "postCollectionsByCollectionIdItemsByIdRevoke",
    { 200: EMPTY },
  ],
  ["get", "/api/v1/markers", "getMarkers", { 200: markers }],
  [
    "post",
    "/api/v1/push/subscription",
    "createPushSubscription",
    { 200: one("WebPushSubscription") },
  ],
  ["get", "/api/v1/push/subscription", "getPushSubscription", { 200: one("WebPushSubscription") }],
  ["put", "/api/v1/push/subscription", "putPushSubscription", { 200: one("WebPushSubscription") }],
  ["delete", "/api/v1/push/subscription", "deletePushSubscription", { 200: EMPTY }],
  ["post", "/api/v1/markers", "createMarker", { 200: markers }],
  ["get", "/api/v1/bookmarks", "getBookmarks", { 200: many("Status") }],
  ["get", "/api/v1/favourites", "getFavourites", { 200: many("Status") }],
  ["get", "/api/v1/followed_tags", "getFollowedTags", { 200: many("Tag") }],
  ["get", "/api/v1/tags/{name}", "getTagsByName", { 200: one("Tag") }],
  ["post", "/api/v1/tags/{name}/follow", "postTagFollow", { 200: one("Tag") }],
  ["post", "/api/v1/tags/{name}/unfollow", "postTagUnfollow", { 200: one("Tag") }],
  ["post", "/api/v1/tags/{id}/feature", "postTagFeature", { 200: one("Tag") }],
  ["post", "/api/v1/tags/{id}/unfeature", "postTagUnfeature", { 200: one("Tag") }],
  ["get", "/api/v2/filters", "getFiltersV2", { 200: many("Filter") }],
  ["post", "/api/v2/filters", "createFilterV2", { 200: one("Filter") }],
  ["get", "/api/v2/filters/{id}", "getFilterV2", { 200: one("Filter") }],
  ["put", "/api/v2/filters/{id}", "updateFilterV2", { 200: one("Filter") }],
  ["delete", "/api/v2/filters/{id}", "deleteFilterV2", { 200: EMPTY }],
  [
    "get",
    "/api/v2/filters/{filter_id}/keywords",
    "getFilterKeywordsV2",
    { 200: many("FilterKeyword") },
  ],
  [
    "post",
    "/api/v2/filters/{filter_id}/keywords",
    "postFilterKeywordsV2",
    { 200: one("FilterKeyword") },
  ],
  [
    "get",
    "/api/v2/filters/keywords/{id}",
    "getFiltersKeywordsByIdV2",
    { 200: one("FilterKeyword") },
  ],
  [
    "put",
    "/api/v2/filters/keywords/{id}",
    "updateFiltersKeywordsByIdV2",
    { 200: one("FilterKeyword") },
  ],
  ["delete", "/api/v2/filters/keywords/{id}", "deleteFiltersKeywordsByIdV2", { 200: EMPTY }],
  [
    "get",
    "/api/v2/filters/{filter_id}/statuses",
    "getFilterStatusesV2",
    { 200: many("FilterStatus") },
  ],
  [
    "post",
    "/api/v2/filters/{filter_id}/statuses",
    "postFilterStatusesV2",
    { 200: one("FilterStatus") },
  ],
  [
    "get",
    "/api/v2/filters/statuses/{id}",
    "getFiltersStatusesByIdV2",
    { 200: one("FilterStatus") },
  ],
  ["delete", "/api/v2/filters/statuses/{id}", "deleteFiltersStatusesByIdV2", { 200: EMPTY }],
  ["get", "/api/v1/filters", "getFilters", { 200: many("V1Filter") }],
  ["post", "/api/v1/filters", "createFilter", { 200: one("V1Filter") }],
  ["get", "/api/v1/filters/{id}", "getFilter", { 200: one("V1Filter") }],
  ["put", "/api/v1/filters/{id}", "updateFilter", { 200: one("V1Filter") }],
  ["delete", "/api/v1/filters/{id}", "deleteFilter", { 200: EMPTY }],
  ["get", "/api/v2/search", "getSearchV2", { 200: one("Search") }],

  ["get", "/api/v1/featured_tags", "getFeaturedTags", { 200: many("FeaturedTag") }],
  ["post", "/api/v1/featured_tags", "createFeaturedTag", { 200: one("FeaturedTag") }],
  ["delete", "/api/v1/featured_tags/{id}", "deleteFeaturedTag", { 200: EMPTY }],
  ["get", "/api/v1/featured_tags/suggestions", "getFeaturedTagsSuggestions", { 200: many("Tag") }],
  [
    "get",
    "/api/v1/accounts/{id}/featured_tags",
    "getAccountFeaturedTags",
    { 200: many("FeaturedTag") },
  ],
  ["post", "/api/v1/reports", "createReport", { 200: one("Report") }],

  // The admin API: accounts
  ["get", "/api/v1/admin/accounts", "getAdminAccounts", { 200: many("AdminAccount") }],
  ["get", "/api/v2/admin/accounts", "getAdminAccountsV2", { 200: many("AdminAccount") }],
  ["get", "/api/v1/admin/accounts/{id}", "getAdminAccount", { 200: one("AdminAccount") }],
  ["delete", "/api/v1/admin/accounts/{id}", "deleteAdminAccount", { 200: one("AdminAccount") }],
  ...(["approve", "reject", "enable", "unsilence", "unsuspend", "unsensitive"] as const).map(
    (action): Row => [
      "post",
      `/api/v1/admin/accounts/{id}/${action}`,
      `postAdminAccount_${action}`,
      { 200: one("AdminAccount") },
    ],
  ),
  ["post", "/api/v1/admin/accounts/{id}/action", "postAdminAccountAction", { 200: EMPTY }],

  // The admin API: reports
  ["get", "/api/v1/admin/reports", "getAdminReports", { 200: many("AdminReport") }],
  ["get", "/api/v1/admin/reports/{id}", "getAdminReport", { 200: one("AdminReport") }],
  ["put", "/api/v1/admin/reports/{id}", "updateAdminReport", { 200: one("AdminReport") }],
  [
    "post",
    "/api/v1/admin/reports/{id}/assign_to_self",
    "postAdminReportAssignToSelf",
    { 200: one("AdminReport") },
  ],
  [
    "post",
    "/api/v1/admin/reports/{id}/unassign",
    "postAdminReportUnassign",
    { 200: one("AdminReport") },
  ],
  [
    "post",
    "/api/v1/admin/reports/{id}/resolve",
    "postAdminReportResolve",
    { 200: one("AdminReport") },
  ],
  [
    "post",
    "/api/v1/admin/reports/{id}/reopen",
    "postAdminReportReopen",
    { 200: one("AdminReport") },
  ],

  // The admin API: hashtags, trends review and metrics
  ["get", "/api/v1/admin/tags", "getAdminTags", { 200: many("AdminTag") }],
  ["get", "/api/v1/admin/tags/{id}", "getAdminTag", { 200: one("AdminTag") }],
  ["put", "/api/v1/admin/tags/{id}", "updateAdminTag", { 200: one("AdminTag") }],
  ["get", "/api/v1/admin/trends/tags", "getAdminTrendsTags", { 200: many("AdminTag") }],
  [
    "get",
    "/api/v1/admin/trends/statuses",
    "getAdminTrendsStatuses",
    { 200: many("AdminTrendsStatus") },
  ],
  ["get", "/api/v1/admin/trends/links", "getAdminTrendsLinks", { 200: many("AdminTrendsLink") }],
  [
    "get",
    "/api/v1/admin/trends/links/publishers",
    "getAdminTrendsLinksPublishers",
    { 200: many("AdminPublisher") },
  ],
  ...(["approve", "reject"] as const).flatMap((verb): Row[] => [
    [
      "post",
      `/api/v1/admin/trends/tags/{id}/${verb}`,
      `${verb}AdminTrendsTag`,
      { 200: one("AdminTag") },
    ],
    [
      "post",
      `/api/v1/admin/trends/statuses/{id}/${verb}`,
      `${verb}AdminTrendsStatus`,
      { 200: one("AdminTrendsStatus") },
    ],
    [
      "post",
      `/api/v1/admin/trends/links/{id}/${verb}`,
      `${verb}AdminTrendsLink`,
      { 200: one("AdminTrendsLink") },
    ],
    [
      "post",
      `/api/v1/admin/trends/links/publishers/{id}/${verb}`,
      `${verb}AdminTrendsLinksPublisher`,
      { 200: one("AdminPublisher") },
    ],
  ]),
  ["post", "/api/v1/admin/measures", "postAdminMeasures", { 200: many("AdminMeasure") }],
  ["post", "/api/v1/admin/dimensions", "postAdminDimensions", { 200: many("AdminDimension") }],
  ["post", "/api/v1/admin/retention", "postAdminRetention", { 200: many("AdminCohort") }],
  // The admin API: server-level blocks
  ["get", "/api/v1/admin/domain_blocks", "getAdminDomainBlocks", { 200: many("AdminDomainBlock") }],
  [
    "post",
    "/api/v1/admin/domain_blocks",
    "createAdminDomainBlock",
    { 200: one("AdminDomainBlock") },
  ],
  [
    "get",
    "/api/v1/admin/domain_blocks/{id}",
    "getAdminDomainBlock",
    { 200: one("AdminDomainBlock") },
  ],
  [
    "put",
    "/api/v1/admin/domain_blocks/{id}",
    "updateAdminDomainBlock",
    { 200: one("AdminDomainBlock") },
  ],
  ["delete", "/api/v1/admin/domain_blocks/{id}", "deleteAdminDomainBlock", { 200: EMPTY }],
  ["get", "/api/v1/admin/domain_allows", "getAdminDomainAllows", { 200: many("AdminDomainAllow") }],
  [
    "post",
    "/api/v1/admin/domain_allows",
    "createAdminDomainAllow",
    { 200: one("AdminDomainAllow") },
  ],
  [
    "get",
    "/api/v1/admin/domain_allows/{id}",
    "getAdminDomainAllow",
    { 200: one("AdminDomainAllow") },
  ],
  ["delete", "/api/v1/admin/domain_allows/{id}", "deleteAdminDomainAllow", { 200: EMPTY }],
  ["get", "/api/v1/admin/ip_blocks", "getAdminIpBlocks", { 200: many("AdminIpBlock") }],
  ["post", "/api/v1/admin/ip_blocks", "createAdminIpBlock", { 200: one("AdminIpBlock") }],
  ["get", "/api/v1/admin/ip_blocks/{id}", "getAdminIpBlock", { 200: one("AdminIpBlock") }],
  ["put", "/api/v1/admin/ip_blocks/{id}", "updateAdminIpBlock", { 200: one("AdminIpBlock") }],
  ["delete", "/api/v1/admin/ip_blocks/{id}", "deleteAdminIpBlock", { 200: EMPTY }],
  [
    "get",
    "/api/v1/admin/email_domain_blocks",
    "getAdminEmailDomainBlocks",
    { 200: many("AdminEmailDomainBlock") },
  ],
  [
    "post",
    "/api/v1/admin/email_domain_blocks",
    "createAdminEmailDomainBlock",
    { 200: one("AdminEmailDomainBlock") },
  ],
  [
    "get",
    "/api/v1/admin/email_domain_blocks/{id}",
    "getAdminEmailDomainBlock",
    { 200: one("AdminEmailDomainBlock") },
  ],
  [
    "delete",
    "/api/v1/admin/email_domain_blocks/{id}",
    "deleteAdminEmailDomainBlock",
    { 200: EMPTY },
  ],
  [
    "get",
    "/api/v1/admin/canonical_email_blocks",
    "getAdminCanonicalEmailBlocks",
    { 200: many("AdminCanonicalEmailBlock") },
  ],
  [
    "post",
    "/api/v1/admin/canonical_email_blocks",
    "createAdminCanonicalEmailBlock",
    { 200: one("AdminCanonicalEmailBlock") },
  ],
  [
    "get",
    "/api/v1/admin/canonical_email_blocks/{id}",
    "getAdminCanonicalEmailBlock",
    { 200: one("AdminCanonicalEmailBlock") },
  ],
  [
    "delete",
    "/api/v1/admin/canonical_email_blocks/{id}",
    "deleteAdminCanonicalEmailBlock",
    { 200: EMPTY },
  ],
  [
    "post",
    "/api/v1/admin/canonical_email_blocks/test",
    "testAdminCanonicalEmailBlocks",
    { 200: many("AdminCanonicalEmailBlock") },
  ],

  // Annual reports ("Wrapstodon")
  ["get", "/api/v1/annual_reports", "getAnnualReports", { 200: one("WrappedAnnualReports") }],
  [
    "get",
    "/api/v1/annual_reports/{year}",
    "getAnnualReportsByYear",
    { 200: one("WrappedAnnualReports") },
  ],
  [
    "post",
    "/api/v1/annual_reports/{year}/generate",
    "postAnnualReportGenerate",
    { 200: EMPTY, 202: EMPTY },
  ],
  ["post", "/api/v1/annual_reports/{year}/read", "postAnnualReportRead", { 200: EMPTY }],
  [
    "get",
    "/api/v1/annual_reports/{year}/state",
    "getAnnualReportState",
    { 200: annualReportState },
  ],
  ["get", "/api/v1_alpha/async_refreshes/{id}", "getAsyncRefreshV1Alpha", { 200: asyncRefresh }],

  // Notifications
  ["get", "/api/v1/notifications", "getNotifications", { 200: many("Notification") }],
  ["get", "/api/v1/notifications/unread_count", "getNotificationsUnreadCount", { 200: count }],
  ["post", "/api/v1/notifications/clear", "createNotificationClear", { 200: EMPTY }],
  [
    "get",
    "/api/v1/notifications/requests",
    "getNotificationRequests",
    { 200: many("NotificationRequest") },
  ],
  [
    "get",
    "/api/v1/notifications/requests/{id}",
    "getNotificationRequest",
    { 200: one("NotificationRequest") },
  ],
  [
    "post",
    "/api/v1/notifications/requests/{id}/accept",
    "postNotificationRequestAccept",
    { 200: EMPTY },
  ],
  [
    "post",
    "/api/v1/notifications/requests/{id}/dismiss",
    "postNotificationRequestDismiss",
    { 200: EMPTY },
  ],
  [
    "post",
    "/api/v1/notifications/requests/accept",
    "postNotificationRequestsAccept",
    { 200: EMPTY },
  ],
  [
    "post",
    "/api/v1/notifications/requests/dismiss",
    "postNotificationRequestsDismiss",
    { 200: EMPTY },
  ],
  [
    "get",
    "/api/v1/notifications/requests/merged",
    "getNotificationRequestsMerged",
    { 200: object({ merged: boolean }) },
  ],
  [
    "get",
    "/api/v1/notifications/policy",
    "getNotificationPolicy",
    { 200: one("V1NotificationPolicy") },
  ],
  [
    "patch",
    "/api/v1/notifications/policy",
    "patchNotificationPolicy",
    { 200: one("V1NotificationPolicy") },
  ],
  [
    "get",
    "/api/v2/notifications/policy",
    "getNotificationPolicyV2",
    { 200: one("NotificationPolicy") },
  ],
  [
    "patch",
    "/api/v2/notifications/policy",
    "patchNotificationPolicyV2",
    { 200: one("NotificationPolicy") },
  ],
  ["get", "/api/v1/notifications/{id}", "getNotification", { 200: one("Notification") }],
  ["post", "/api/v1/notifications/{id}/dismiss", "postNotificationDismiss", { 200: EMPTY }],
  [
    "get",
    "/api/v2/notifications",
    "getNotificationsV2",
    { 200: one("GroupedNotificationsResults") },
  ],
  ["get", "/api/v2/notifications/unread_count", "getNotificationsUnreadCountV2", { 200: count }],
  [
    "get",
    "/api/v2/notifications/{group_key}",
    "getNotificationsByGroupKeyV2",
    { 200: one("GroupedNotificationsResults") },
  ],
  [
    "get",
    "/api/v2/notifications/{group_key}/accounts",
    "getNotificationAccountsV2",
    { 200: many("Account") },
  ],
  [
    "post",
    "/api/v2/notifications/{group_key}/dismiss",
    "postNotificationDismissV2",
    { 200: EMPTY },
  ],

  // The server
  ["get", "/api/v1/instance", "getInstance", { 200: one("V1Instance") }],
  ["get", "/api/v2/instance", "getInstanceV2", { 200: one("Instance") }],
  ["get", "/api/v1/instance/peers", "getInstancePeers", { 200: strings }],
  ["get", "/api/v1/instance/rules", "getInstanceRules", { 200: many("Rule") }],
  ["get", "/api/oembed", "getOembed", { 200: oembed }],
  ["get", "/health", "getHealth", { 200: EMPTY }],
  ["get", "/api/v1/instance/activity", "getInstanceActivity", { 200: arrayOf(activityWeek) }],
  [
    "get",
    "/api/v1/instance/domain_blocks",
    "getInstanceDomainBlocks",
    { 200: many("DomainBlock") },
  ],
  [
    "get",
    "/api/v1/instance/extended_description",
    "getInstanceExtendedDescription",
    { 200: one("ExtendedDescription") },
  ],
  [
    "get",
    "/api/v1/instance/privacy_policy",
    "getInstancePrivacyPolicy",
    { 200: one("PrivacyPolicy") },
  ],
  [
    "get",
    "/api/v1/instance/terms_of_service",
    "getInstanceTermsOfService",
    { 200: one("TermsOfService") },
  ],
  [
    "get",
    "/api/v1/instance/terms_of_service/{date}",
    "getInstanceTermsOfServiceByDate",
    { 200: one("TermsOfService") },
  ],
  ["get", "/api/v1/instance/languages", "getInstanceLanguages", { 200: postingLanguages }],
  [
    "get",
    "/api/v1/instance/translation_languages",
    "getInstanceTranslationLanguages",
    { 200: translationLanguages },
  ],
  ["get", "/api/v1/preferences", "getPreferences", { 200: one("Preferences") }],
  ["get", "/api/v1/custom_emojis", "getCustomEmojis", { 200: many("CustomEmoji") }],
  ["get", "/api/v1/announcements", "getAnnouncements", { 200: many("Announcement") }],
  ["post", "/api/v1/announcements/{id}/dismiss", "postAnnouncementDismiss", { 200: EMPTY }],
  [
    "put",
    "/api/v1/announcements/{id}/reactions/{name}",
    "updateAnnouncementReaction",
    { 200: EMPTY },
  ],
  [
    "delete",
    "/api/v1/announcements/{id}/reactions/{name}",
    "deleteAnnouncementReaction",
    { 200: EMPTY },
  ],
];

/** A refused sign-up names what is wrong with each attribute. */
const richerErrors: Record<string, Record<number, Schema>> = {
  "post /api/v1/accounts": { 422: entity("ValidationError") },
  "post /api/v1/collections": { 422: entity("ValidationError") },
  "patch /api/v1/collections/{id}": { 422: entity("ValidationError") },
};

export const operations: readonly OperationRow[] = rows.map(
  ([method, template, operationId, responses]) => {
    const errorResponses = richerErrors[`${method} ${template}`];
    return {
      method,
      template,
      operationId,
      responses,
      ...(errorResponses ? { errorResponses } : {}),
    };
  },
);
