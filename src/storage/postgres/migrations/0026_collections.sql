-- Users' collections of featured accounts (Mastodon 4.6), found by id and by owner; the items are
-- inline in `data`, and the GIN index finds the collections an account is featured in.
create table collections (
  id bigint primary key,
  account_id bigint not null,
  data jsonb not null
);
create index collections_account on collections (account_id, id);
create index collections_items on collections using gin ((data->'items') jsonb_path_ops);
create trigger collections_changed after insert or update or delete or truncate on collections
  for each statement execute function wren_notify_change();
