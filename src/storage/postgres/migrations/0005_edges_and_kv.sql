-- Edges (follows, blocks, favourites, poll votes…): every kind in one table, one row per
-- (kind, account, target) pair. The account and target are text: a target is an account, a
-- status, a poll, an announcement or a conversation, and only equality is asked of them. The edge
-- id (bigint, ordered like Wren's ids) orders and pages the lists from an account and to a target.
create table edges (
  kind text not null,
  account_id text not null,
  target_id text not null,
  id bigint not null,
  data jsonb not null,
  primary key (kind, account_id, target_id)
);
create index edges_from on edges (kind, account_id, id desc);
create index edges_to on edges (kind, target_id, id desc);
-- An edge's id names one edge of its kind: a put of the id with another pair moves it.
create index edges_id on edges (kind, id);
create trigger edges_changed after insert or update or delete or truncate on edges
  for each statement execute function wren_notify_change();

-- The key-value store behind Fedify and Wren's own federation state (domain blocks, action
-- budgets). Keys are lists of text segments compared byte-wise ("C"), so `list` answers in the
-- order the json-file backend does and a prefix is the key's first segments.
create table kv (
  key text[] collate "C" primary key,
  value jsonb not null,
  expires_at timestamptz
);
create index kv_expiry on kv (expires_at) where expires_at is not null;
-- Of the key-value entries only the domain blocks show in API answers: only their writes signal a
-- change to the other processes. NOTIFY serialises committing transactions on one lock, and the
-- rest of this table (action budgets, Fedify's caches and marks) is written on every post.
create trigger kv_changed_insert after insert on kv for each row
  when (new.key[1:2] = array['wren', 'domainBlock'])
  execute function wren_notify_change();
create trigger kv_changed_update after update on kv for each row
  when (new.key[1:2] = array['wren', 'domainBlock'] or old.key[1:2] = array['wren', 'domainBlock'])
  execute function wren_notify_change();
create trigger kv_changed_delete after delete on kv for each row
  when (old.key[1:2] = array['wren', 'domainBlock'])
  execute function wren_notify_change();
create trigger kv_changed_truncate after truncate on kv
  for each statement execute function wren_notify_change();
