-- Statuses, their earlier versions and polls. Each row holds the whole record as jsonb (`data`,
-- exactly what json-file stores) plus the columns the lists filter and sort on. Deleted statuses
-- stay as rows (they answer 404/410) and are left out of every list and count, so the list
-- indexes are partial on `not deleted`. Every timeline is a descending range scan on an id index.

create table statuses (
  id bigint primary key,
  account_id bigint not null,
  uri text not null,
  visibility text not null,
  local boolean not null,
  deleted boolean not null,
  has_media boolean not null,
  in_reply_to_id bigint,
  in_reply_to_account_id bigint,
  reblog_of_id bigint,
  -- Lower-cased hashtags, for StatusFilter.tagged on an account's statuses.
  tags text[] not null,
  data jsonb not null,
  -- In the public timelines: public, not a reblog, not deleted, not a reply to someone else
  -- (self-replies, threads, are kept), as Mastodon's public feed.
  public_timeline boolean not null generated always as (
    visibility = 'public' and reblog_of_id is null and not deleted
    and (in_reply_to_id is null or in_reply_to_account_id is not distinct from account_id)
  ) stored
);

-- findByUri (deleted statuses included: they answer with a Tombstone).
create index statuses_uri on statuses (uri);
-- listByAccount, countByAccount, accountFacts, and home timelines (one range scan per author).
create index statuses_account on statuses (account_id, id) where not deleted;
-- Public timeline, origin "all".
create index statuses_public on statuses (id) where public_timeline;
-- Public timeline, origin "local" or "remote".
create index statuses_public_origin on statuses (local, id) where public_timeline;
-- listReplies, countReplies, interactionCounts.
create index statuses_replies on statuses (in_reply_to_id, id)
  where in_reply_to_id is not null and not deleted;
-- listReblogs, countReblogs, interactionCounts.
create index statuses_reblogs on statuses (reblog_of_id, id)
  where reblog_of_id is not null and not deleted;
-- findReblog, findReblogs: one account's reblog of a status.
create index statuses_reblog_by on statuses (account_id, reblog_of_id)
  where reblog_of_id is not null and not deleted;
-- countLocal.
create index statuses_local on statuses (id) where local and not deleted;

create trigger statuses_changed after insert or update or delete or truncate on statuses
  for each statement execute function wren_notify_change();

-- Hashtag timelines: one row per (lower-cased tag, status) for the statuses they hold (public,
-- not a reblog, not deleted; replies included), rewritten with the status on every put, so a
-- hashtag page is a range scan on (tag, status_id) however many statuses carry other tags.
create table status_tags (
  tag text not null,
  status_id bigint not null,
  account_id bigint not null,
  local boolean not null,
  has_media boolean not null,
  primary key (tag, status_id)
);
-- Hashtag timeline, origin "local" or "remote" (origin "all" uses the primary key).
create index status_tags_origin on status_tags (tag, local, status_id);
-- Rewriting a status's rows on put.
create index status_tags_status on status_tags (status_id);

create trigger status_tags_changed after insert or update or delete or truncate on status_tags
  for each statement execute function wren_notify_change();

create table status_edits (
  id bigint primary key,
  status_id bigint not null,
  data jsonb not null
);
-- listByStatus (oldest first), deleteByStatus.
create index status_edits_status on status_edits (status_id, id);

create trigger status_edits_changed after insert or update or delete or truncate on status_edits
  for each statement execute function wren_notify_change();

-- Polls are looked up by id only (votes are edges, in the edge tables).
create table polls (
  id bigint primary key,
  data jsonb not null
);

create trigger polls_changed after insert or update or delete or truncate on polls
  for each statement execute function wren_notify_change();

-- Tombstones (deleted non-reblogs), newest first: the weekly sweep that purges old ones' content.
create index statuses_deleted on statuses (id) where deleted and reblog_of_id is null;
