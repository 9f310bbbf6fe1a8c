-- Notifications and direct-message conversations: the whole record as jsonb (`data`) plus the
-- columns their lists and lookups use.

create table notifications (
  id bigint primary key,
  -- The recipient.
  account_id bigint not null,
  type text not null,
  from_account_id bigint not null,
  status_id bigint,
  data jsonb not null
);
-- listFor, countFor, clear: the recipient's notifications by id.
create index notifications_account on notifications (account_id, id);
-- find: the recipient's notification of one exact kind.
create index notifications_kind on notifications (account_id, type, from_account_id, status_id);
-- deleteByStatus.
create index notifications_status on notifications (status_id) where status_id is not null;

create trigger notifications_changed after insert or update or delete or truncate on notifications
  for each statement execute function wren_notify_change();

create table conversations (
  id bigint primary key,
  account_id bigint not null,
  -- The thread (Status.conversationId).
  conversation_id text not null,
  last_status_id bigint not null,
  data jsonb not null
);
-- listFor: the account's conversations by last status (ties by id), paged by last status.
create index conversations_account on conversations (account_id, last_status_id, id);
-- find: the account's entry for a thread.
create index conversations_thread on conversations (account_id, conversation_id);

create trigger conversations_changed after insert or update or delete or truncate on conversations
  for each statement execute function wren_notify_change();
