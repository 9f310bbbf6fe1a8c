/**
 * Every entity schema by the name tests use (`assertMatchesSchema(body, "Account")`) and
 * entities refer to each other by (`entity("Account")`). Names follow Mastodon's entity
 * documentation; where it has no name for a flavour, the name Mastodon's OpenAPI
 * description gives it (CredentialAccount, V1Instance, …) so existing tests keep theirs.
 */
import type { Schema } from "../json-schema.ts";
import {
  Account,
  AccountRole,
  CredentialAccount,
  Field,
  MutedAccount,
  PartialAccountWithAvatar,
  Role,
} from "./account.ts";
import { AdminAccount, AdminIp, AdminReport } from "./admin.ts";
import {
  AdminCanonicalEmailBlock,
  AdminDomainAllow,
  AdminDomainBlock,
  AdminEmailDomainBlock,
  AdminIpBlock,
} from "./admin-blocks.ts";
import {
  AdminCohort,
  AdminDimension,
  AdminMeasure,
  AdminPublisher,
  AdminTag,
  AdminTrendsLink,
  AdminTrendsStatus,
} from "./admin-trends.ts";
import { Announcement, Reaction } from "./announcement.ts";
import { AnnualReport, AsyncRefresh, WrappedAnnualReports } from "./annual-report.ts";
import { Application, CredentialApplication } from "./application.ts";
import {
  Collection,
  CollectionItem,
  Collections,
  CollectionWithAccounts,
  WrappedCollection,
  WrappedCollectionItem,
} from "./collection.ts";
import { Context } from "./context.ts";
import { Conversation } from "./conversation.ts";
import { CustomEmoji } from "./custom-emoji.ts";
import { ErrorEntity, ValidationError } from "./error.ts";
import { FeaturedTag } from "./featured-tag.ts";
import { Filter, FilterKeyword, FilterResult, FilterStatus, V1Filter } from "./filter.ts";
import { Instance } from "./instance.ts";
import {
  DomainBlock,
  ExtendedDescription,
  PrivacyPolicy,
  TermsOfService,
} from "./instance-documents.ts";
import { List } from "./list.ts";
import { Marker } from "./marker.ts";
import { MediaAttachment } from "./media-attachment.ts";
import { GroupedNotificationsResults, Notification, NotificationGroup } from "./notification.ts";
import {
  NotificationPolicy,
  NotificationRequest,
  V1NotificationPolicy,
} from "./notification-policy.ts";
import { Poll } from "./poll.ts";
import { Preferences } from "./preferences.ts";
import { PreviewCard } from "./preview-card.ts";
import { Profile } from "./profile.ts";
import { FamiliarFollowers, Relationship } from "./relationship.ts";
import { Report } from "./report.ts";
import { Rule } from "./rule.ts";
import { ScheduledStatus } from "./scheduled-status.ts";
import { Search } from "./search.ts";
import {
  Quote,
  QuoteApproval,
  ShallowQuote,
  Status,
  StatusEdit,
  StatusMention,
  StatusSource,
  StatusTag,
} from "./status.ts";
import { Suggestion } from "./suggestion.ts";
import { Tag } from "./tag.ts";
import { Token } from "./token.ts";
import { Translation } from "./translation.ts";
import { V1Instance } from "./v1-instance.ts";
import { WebPushSubscription } from "./web-push-subscription.ts";

export const entities: Readonly<Record<string, Schema>> = {
  Account,
  AccountRole,
  AdminAccount,
  AdminCanonicalEmailBlock,
  AdminDomainAllow,
  AdminDomainBlock,
  AdminEmailDomainBlock,
  AdminIp,
  AdminIpBlock,
  AdminReport,
  AdminCohort,
  AdminDimension,
  AdminMeasure,
  AdminPublisher,
  AdminTag,
  AdminTrendsLink,
  AdminTrendsStatus,
  Announcement,
  AnnualReport,
  Application,
  AsyncRefresh,
  Collection,
  CollectionItem,
  Collections,
  CollectionWithAccounts,
  Context,
  Conversation,
  CredentialAccount,
  CredentialApplication,
  CustomEmoji,
  DomainBlock,
  Error: ErrorEntity,
  ExtendedDescription,
  FamiliarFollowers,
  FeaturedTag,
  Field,
  Filter,
  FilterKeyword,
  FilterResult,
  FilterStatus,
  GroupedNotificationsResults,
  Instance,
  List,
  Marker,
  MediaAttachment,
  MutedAccount,
  Notification,
  NotificationGroup,
  NotificationPolicy,
  NotificationRequest,
  PartialAccountWithAvatar,
  Poll,
  Preferences,
  PreviewCard,
  PrivacyPolicy,
  Profile,
  Quote,
  QuoteApproval,
  Reaction,
  Relationship,
  Report,
  Role,
  Rule,
  ScheduledStatus,
  Search,
  ShallowQuote,
  Status,
  StatusEdit,
  StatusMention,
  StatusSource,
  StatusTag,
  Suggestion,
  Tag,
  TermsOfService,
  Token,
  Translation,
  V1Filter,
  V1Instance,
  V1NotificationPolicy,
  ValidationError,
  WebPushSubscription,
  WrappedAnnualReports,
  WrappedCollection,
  WrappedCollectionItem,
};
