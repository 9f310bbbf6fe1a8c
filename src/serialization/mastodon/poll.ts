// PollView → Mastodon's Poll entity. Pure. Option totals are hidden (null) while a
// hide_totals poll is running — for everyone, the author included, as Mastodon does — and
// `voted`/`own_votes` appear only for a viewer with an account.

import type { PollView } from "../../views/poll-view.ts";
import type { UrlContext } from "./account.ts";
import { type CustomEmojiJson, serializeCustomEmojis } from "./custom-emoji.ts";

export interface PollOptionJson {
  title: string;
  votes_count: number | null;
}

export interface PollJson {
  id: string;
  expires_at: string | null;
  expired: boolean;
  multiple: boolean;
  votes_count: number;
  voters_count: number | null;
  options: PollOptionJson[];
  emojis: CustomEmojiJson[];
  voted?: boolean;
  own_votes?: number[];
}

export function serializePoll(view: PollView, urls: UrlContext): PollJson {
  const { poll } = view;
  const showTotals = view.expired || !poll.hideTotals;
  const json: PollJson = {
    id: poll.id,
    expires_at: poll.expiresAt,
    expired: view.expired,
    multiple: poll.multiple,
    votes_count: poll.votesCount,
    voters_count: poll.votersCount,
    options: poll.options.map((o) => ({
      title: o.title,
      votes_count: showTotals ? o.votesCount : null,
    })),
    emojis: serializeCustomEmojis(view.emojis, urls),
  };
  if (view.viewer) {
    json.voted = view.viewer.voted;
    json.own_votes = view.viewer.ownVotes;
  }
  return json;
}
