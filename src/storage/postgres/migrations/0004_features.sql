-- Smaller features: read markers, custom emojis, announcements and their reactions, reports and
-- media attachments. As in 0001: the whole record in `data`, the looked-up fields as columns,
-- case-insensitive keys lower-cased by Wren, "C" collation for byte comparison and ordering.

create table markers (
  account_id bigint not null,
  timeline text collate "C" not null,
  data jsonb not null,
  primary key (account_id, timeline)
);
create trigger markers_changed after insert or update or delete or truncate on markers
  for each statement execute function wren_notify_change();

create table custom_emojis (
  id bigint primary key,
  -- Shortcodes match case-sensitively (Mastodon); "C" also orders listLocal by code point.
  shortcode text collate "C" not null,
  -- The lower-cased domain; '' for local emojis.
  domain_key text collate "C" not null,
  data jsonb not null
);
-- findByShortcode(s) and listLocal (domain_key = '' in shortcode order).
create index custom_emojis_shortcode on custom_emojis (domain_key, shortcode);
create trigger custom_emojis_changed after insert or update or delete or truncate on custom_emojis
  for each statement execute function wren_notify_change();

create table announcements (
  id bigint primary key,
  data jsonb not null
);
create trigger announcements_changed after insert or update or delete or truncate on announcements
  for each statement execute function wren_notify_change();

create table announcement_reactions (
  id bigint primary key,
  announcement_id bigint not null,
  account_id bigint not null,
  name text collate "C" not null,
  data jsonb not null,
  -- One reaction per announcement, account and exact name, whichever process adds it.
  unique (announcement_id, account_id, name)
);
create index announcement_reactions_announcement on announcement_reactions (announcement_id, id);
create trigger announcement_reactions_changed
  after insert or update or delete or truncate on announcement_reactions
  for each statement execute function wren_notify_change();

create table reports (
  id bigint primary key,
  -- The Flag activity id; null for reports without one.
  uri text collate "C",
  data jsonb not null
);
create index reports_uri on reports (uri) where uri is not null;
create trigger reports_changed after insert or update or delete or truncate on reports
  for each statement execute function wren_notify_change();

create table media_attachments (
  id bigint primary key,
  -- null while unattached.
  status_id bigint,
  -- createdAt in milliseconds since the epoch, 0 when unreadable (cleaned up first, as in json-file).
  created_ms bigint not null,
  data jsonb not null
);
-- listUnattachedBefore: the oldest unattached first.
create index media_attachments_unattached on media_attachments (created_ms, id)
  where status_id is null;
create trigger media_attachments_changed
  after insert or update or delete or truncate on media_attachments
  for each statement execute function wren_notify_change();
