// Every route module of the HTTP layer, in registration order. Literal paths such as
// /api/v1/accounts/verify_credentials are registered by their module before `:id` routes.

import { adminAreaRoutes } from "./admin/routes.ts";
import type { RouteModule } from "./app.ts";
import { registerAccountPageRoutes } from "./auth/account-routes.ts";
import { defaultImageRoutes } from "./default-images.ts";
import { healthRoutes } from "./health.ts";
import { oembedRoutes } from "./mastodon/oembed.ts";
import { accountRelationRoutes } from "./mastodon/v1/account-relations.ts";
import { accountStatusesRoutes } from "./mastodon/v1/account-statuses.ts";
import { accountRoutes } from "./mastodon/v1/accounts.ts";
import { adminAccountRoutes } from "./mastodon/v1/admin/accounts.ts";
import { adminAddressBlockRoutes } from "./mastodon/v1/admin/address-blocks.ts";
import { adminDomainBlockRoutes } from "./mastodon/v1/admin/domain-blocks.ts";
import { adminMetricRoutes } from "./mastodon/v1/admin/metrics.ts";
import { adminReportRoutes } from "./mastodon/v1/admin/reports.ts";
import { adminTagRoutes } from "./mastodon/v1/admin/tags.ts";
import { announcementRoutes } from "./mastodon/v1/announcements.ts";
import { annualReportRoutes } from "./mastodon/v1/annual-reports.ts";
import { registerAppsRoutes } from "./mastodon/v1/apps.ts";
import { asyncRefreshRoutes } from "./mastodon/v1/async-refreshes.ts";
import { blockMuteRoutes } from "./mastodon/v1/blocks-mutes.ts";
import { bookmarksRoutes } from "./mastodon/v1/bookmarks.ts";
import { collectionRoutes } from "./mastodon/v1/collections.ts";
import { conversationRoutes } from "./mastodon/v1/conversations.ts";
import { customEmojiRoutes } from "./mastodon/v1/custom-emojis.ts";
import { directoryRoutes } from "./mastodon/v1/directory.ts";
import { domainBlockRoutes } from "./mastodon/v1/domain-blocks.ts";
import { emailRoutes } from "./mastodon/v1/emails.ts";
import { endorsementRoutes } from "./mastodon/v1/endorsements.ts";
import { favouritesRoutes } from "./mastodon/v1/favourites.ts";
import { featuredTagRoutes } from "./mastodon/v1/featured-tags.ts";
import { filterV1Routes } from "./mastodon/v1/filters.ts";
import { followRequestRoutes } from "./mastodon/v1/follow-requests.ts";
import { identityProofRoutes } from "./mastodon/v1/identity-proofs.ts";
import { instanceV1Routes } from "./mastodon/v1/instance.ts";
import { instanceDocumentRoutes } from "./mastodon/v1/instance-documents.ts";
import { listRoutes } from "./mastodon/v1/lists.ts";
import { markersRoutes } from "./mastodon/v1/markers.ts";
import { mediaV1Routes } from "./mastodon/v1/media.ts";
import { notificationPolicyRoutes } from "./mastodon/v1/notification-policy.ts";
import { notificationRequestRoutes } from "./mastodon/v1/notification-requests.ts";
import { notificationV1Routes } from "./mastodon/v1/notifications.ts";
import { pollRoutes } from "./mastodon/v1/polls.ts";
import { preferencesRoutes } from "./mastodon/v1/preferences.ts";
import { profileRoutes } from "./mastodon/v1/profile.ts";
import { pushRoutes } from "./mastodon/v1/push.ts";
import { quoteRoutes } from "./mastodon/v1/quotes.ts";
import { reportRoutes } from "./mastodon/v1/reports.ts";
import { scheduledStatusRoutes } from "./mastodon/v1/scheduled-statuses.ts";
import { statusActionRoutes } from "./mastodon/v1/status-actions.ts";
import { statusRoutes } from "./mastodon/v1/statuses.ts";
import { tagRoutes } from "./mastodon/v1/tags.ts";
import { timelineRoutes } from "./mastodon/v1/timelines.ts";
import { translationRoutes } from "./mastodon/v1/translations.ts";
import { trendRoutes } from "./mastodon/v1/trends.ts";
import { filterV2Routes } from "./mastodon/v2/filters.ts";
import { instanceV2Routes } from "./mastodon/v2/instance.ts";
import { mediaV2Routes } from "./mastodon/v2/media.ts";
import { notificationV2Routes } from "./mastodon/v2/notifications.ts";
import { searchV2Routes } from "./mastodon/v2/search.ts";
import { suggestionRoutes } from "./mastodon/v2/suggestions.ts";
import { mediaFileRoutes } from "./media-files.ts";
import { registerAuthorizeRoutes } from "./oauth/authorize.ts";
import { registerOAuthMetadataRoutes } from "./oauth/metadata.ts";
import { registerTokenRoutes } from "./oauth/token.ts";
import { registerUserinfoRoutes } from "./oauth/userinfo.ts";
import { registerSessionRoutes } from "./session/sign-in-routes.ts";
import { settingsRoutes } from "./settings/routes.ts";
import { feedRoutes } from "./web/feed-routes.ts";
import { webPageRoutes } from "./web/routes.ts";
import { sitePageRoutes } from "./web/site-routes.ts";

export const ROUTE_MODULES: RouteModule[] = [
  adminMetricRoutes,
  adminAccountRoutes,
  adminReportRoutes,
  adminTagRoutes,
  adminDomainBlockRoutes,
  adminAddressBlockRoutes,
  registerAppsRoutes,
  registerAuthorizeRoutes,
  registerAccountPageRoutes,
  registerSessionRoutes,
  settingsRoutes,
  adminAreaRoutes,
  registerTokenRoutes,
  registerOAuthMetadataRoutes,
  registerUserinfoRoutes,
  accountRelationRoutes,
  blockMuteRoutes,
  domainBlockRoutes,
  endorsementRoutes,
  directoryRoutes,
  suggestionRoutes,
  trendRoutes,
  followRequestRoutes,
  accountRoutes,
  identityProofRoutes,
  emailRoutes,
  profileRoutes,
  accountStatusesRoutes,
  timelineRoutes,
  tagRoutes,
  featuredTagRoutes,
  notificationPolicyRoutes,
  notificationRequestRoutes,
  notificationV1Routes,
  notificationV2Routes,
  searchV2Routes,
  statusRoutes,
  statusActionRoutes,
  translationRoutes,
  quoteRoutes,
  scheduledStatusRoutes,
  favouritesRoutes,
  bookmarksRoutes,
  pollRoutes,
  markersRoutes,
  pushRoutes,
  preferencesRoutes,
  reportRoutes,
  annualReportRoutes,
  asyncRefreshRoutes,
  listRoutes,
  collectionRoutes,
  filterV1Routes,
  filterV2Routes,
  conversationRoutes,
  instanceV1Routes,
  instanceDocumentRoutes,
  instanceV2Routes,
  announcementRoutes,
  customEmojiRoutes,
  mediaV1Routes,
  mediaV2Routes,
  mediaFileRoutes,
  defaultImageRoutes,
  healthRoutes,
  oembedRoutes,
  // Before the pages: /@name.rss and /tags/:name.rss also fit their patterns.
  feedRoutes,
  webPageRoutes,
  sitePageRoutes,
];
