// Instance-wide announcements written by admins, with per-user read state and emoji reactions.

export interface Announcement {
  id: string;
  /** The text as the admin wrote it, and its rendered HTML. */
  text: string;
  contentHtml: string;
  startsAt: string | null;
  endsAt: string | null;
  allDay: boolean;
  publishedAt: string;
  updatedAt: string;
  mentionIds: string[];
  tags: string[];
}

export interface AnnouncementReaction {
  id: string;
  announcementId: string;
  accountId: string;
  /** A unicode emoji or a custom emoji shortcode. */
  name: string;
  createdAt: string;
}
