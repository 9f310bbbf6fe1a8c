-- Scheduled statuses (ScheduledStatusStore): listed per account by id, and counted per account
-- (in all, and within one day of scheduled_at for Mastodon's daily limit).
create table scheduled_statuses (
  id bigint primary key,
  account_id bigint not null,
  scheduled_at timestamptz not null,
  data jsonb not null
);
create index scheduled_statuses_account on scheduled_statuses (account_id, id);
create index scheduled_statuses_account_time on scheduled_statuses (account_id, scheduled_at);
create trigger scheduled_statuses_changed
  after insert or update or delete or truncate on scheduled_statuses
  for each statement execute function wren_notify_change();
