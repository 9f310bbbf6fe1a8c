-- Users' lists (Mastodon's lists), found by id and by owner. Their members are edges of kind
-- 'list-members' (list id → member account id) in the shared `edges` table.
create table lists (
  id bigint primary key,
  account_id bigint not null,
  data jsonb not null
);
create index lists_account on lists (account_id, id);
create trigger lists_changed after insert or update or delete or truncate on lists
  for each statement execute function wren_notify_change();
