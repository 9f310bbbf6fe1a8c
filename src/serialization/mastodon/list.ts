// Mastodon's List entity. Pure.

import type { List, RepliesPolicy } from "../../domain/list.ts";

export interface ListJson {
  id: string;
  title: string;
  replies_policy: RepliesPolicy;
  exclusive: boolean;
}

export function serializeList(list: List): ListJson {
  return {
    id: list.id,
    title: list.title,
    replies_policy: list.repliesPolicy,
    exclusive: list.exclusive,
  };
}
