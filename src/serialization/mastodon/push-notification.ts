// The JSON a Web Push message carries (Mastodon's Web::NotificationSerializer): the token the
// app subscribed with, the user's language, the notification's id and type, the sender's avatar,
// and a title and body a phone can show without asking the server. Pure.

import type { Account } from "../../domain/account.ts";
import type { Notification, NotificationType } from "../../domain/notification.ts";
import type { Status } from "../../domain/status.ts";
import { htmlToText } from "../../domain/text/html.ts";
import { imageRefUrls, MISSING_AVATAR, type UrlContext } from "./account.ts";

export interface PushNotificationInput {
  notification: Notification;
  accessToken: string;
  locale: string;
  from: Account;
  /** The status it is about, or null. */
  status: Status | null;
}

/** Mastodon's English subjects (notification_mailer.<type>.subject); Wren's for the others. */
const TITLES: Record<NotificationType, (name: string) => string> = {
  mention: (name) => `You were mentioned by ${name}`,
  status: (name) => `${name} just posted`,
  reblog: (name) => `${name} boosted your post`,
  follow: (name) => `${name} is now following you`,
  follow_request: (name) => `Pending follower: ${name}`,
  favourite: (name) => `${name} favorited your post`,
  poll: (name) => `A poll by ${name} has ended`,
  update: (name) => `${name} edited a post`,
  added_to_collection: (name) => `${name} added you to a collection`,
  collection_update: (name) => `${name} changed a collection you are in`,
  move: (name) => `${name} moved to a new account`,
  "admin.sign_up": (name) => `New account: ${name}`,
  quote: (name) => `${name} quoted your post`,
  quoted_update: (name) => `${name} edited a post you have quoted`,
};

/** Mastodon cuts the body at 140 characters, the last three being "...". */
const BODY_LENGTH = 140;

function truncate(text: string): string {
  const chars = [...text];
  return chars.length <= BODY_LENGTH ? text : `${chars.slice(0, BODY_LENGTH - 3).join("")}...`;
}

function body({ status, from }: PushNotificationInput): string {
  if (status?.spoilerText) return truncate(status.spoilerText);
  if (status) return truncate(htmlToText(status.contentHtml));
  return truncate(htmlToText(from.noteHtml));
}

/**
 * The payload as JSON text. `notification_id` is a number, as Mastodon writes it, with every
 * digit kept (ids may pass 2^53, so it is written from the id's text, not through a double).
 */
export function serializePushNotification(input: PushNotificationInput, urls: UrlContext): string {
  const { notification, from } = input;
  const icon = from.avatar
    ? imageRefUrls(from.avatar, urls)[1]
    : `${urls.publicUrl}${MISSING_AVATAR}`;
  const name = from.displayName || from.username;
  const rest = JSON.stringify({
    preferred_locale: input.locale,
    notification_type: notification.type,
    icon,
    title: TITLES[notification.type](name),
    body: body(input),
  });
  const id = /^[0-9]+$/.test(notification.id) ? notification.id : JSON.stringify(notification.id);
  return `{"access_token":${JSON.stringify(input.accessToken)},"notification_id":${id},${rest.slice(1)}`;
}
