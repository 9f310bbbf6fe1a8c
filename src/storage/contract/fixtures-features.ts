// Fixtures for polls, notifications, announcements, emojis, markers, push subscriptions,
// conversations and jobs: complete, valid records from the fields a test cares about (see
// fixtures.ts for the rest).

import type { Announcement, AnnouncementReaction } from "../../domain/announcement.ts";
import type { Conversation } from "../../domain/conversation.ts";
import type { CustomEmoji } from "../../domain/custom-emoji.ts";
import type { Job } from "../../domain/job.ts";
import type { Marker } from "../../domain/marker.ts";
import type { Notification } from "../../domain/notification.ts";
import type { Poll, PollVote } from "../../domain/poll.ts";
import type { PushSubscription } from "../../domain/push-subscription.ts";
import { CREATED, type EdgeFields } from "./fixtures.ts";

export function makePoll(fields: Partial<Poll> & { id: string }): Poll {
  return {
    statusId: "1",
    accountId: "1",
    options: [
      { title: "yes", votesCount: 0 },
      { title: "no", votesCount: 0 },
    ],
    multiple: false,
    hideTotals: false,
    expiresAt: "2025-01-03T03:04:05.000Z",
    votesCount: 0,
    votersCount: 0,
    closedAt: null,
    createdAt: CREATED,
    ...fields,
  };
}

export function makePollVote(fields: EdgeFields & Partial<PollVote>): PollVote {
  return { createdAt: CREATED, choices: [0], ...fields };
}

export function makeNotification(
  fields: Partial<Notification> & { id: string; accountId: string },
): Notification {
  const type = fields.type ?? "favourite";
  return {
    type,
    fromAccountId: "2",
    statusId: type === "follow" || type === "follow_request" ? null : "100",
    groupKey: `ungrouped-${fields.id}`,
    createdAt: CREATED,
    ...fields,
  };
}

export function makeAnnouncement(fields: Partial<Announcement> & { id: string }): Announcement {
  return {
    text: `announcement ${fields.id}`,
    contentHtml: `<p>announcement ${fields.id}</p>`,
    startsAt: null,
    endsAt: null,
    allDay: false,
    publishedAt: CREATED,
    updatedAt: CREATED,
    mentionIds: [],
    tags: [],
    ...fields,
  };
}

export function makeReaction(
  fields: Partial<AnnouncementReaction> & { id: string; announcementId: string },
): AnnouncementReaction {
  return { accountId: "1", name: "👍", createdAt: CREATED, ...fields };
}

export function makeEmoji(fields: Partial<CustomEmoji> & { id: string }): CustomEmoji {
  const shortcode = fields.shortcode ?? `emoji${fields.id}`;
  return {
    shortcode,
    domain: null,
    imageKey: `emojis/${fields.id}/original.png`,
    staticKey: `emojis/${fields.id}/static.png`,
    category: null,
    visibleInPicker: true,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...fields,
  };
}

export function makeMarker(
  fields: Partial<Marker> & Pick<Marker, "accountId" | "timeline">,
): Marker {
  return { lastReadId: "100", version: 1, updatedAt: CREATED, ...fields };
}

export function makeConversation(
  fields: Partial<Conversation> & { id: string; accountId: string; lastStatusId: string },
): Conversation {
  return {
    conversationId: `thread-${fields.id}`,
    participantIds: ["2"],
    unread: false,
    updatedAt: CREATED,
    ...fields,
  };
}

export function makeJob(fields: Partial<Job> & { id: string }): Job {
  return {
    type: "test.job",
    payload: { n: 1 },
    runAt: CREATED,
    attempts: 0,
    lastError: null,
    failedAt: null,
    createdAt: CREATED,
    ...fields,
  };
}

export function makePushSubscription(
  fields: Partial<PushSubscription> & Pick<PushSubscription, "tokenId" | "accountId">,
): PushSubscription {
  return {
    id: `9${fields.tokenId}`,
    accessToken: `token-${fields.tokenId}`,
    endpoint: `https://push.example/send/${fields.tokenId}`,
    keys: { p256dh: "BPublicKey", auth: "AuthSecret" },
    standard: true,
    alerts: { mention: true, follow: false },
    policy: "all",
    createdAt: CREATED,
    updatedAt: CREATED,
    ...fields,
  };
}
