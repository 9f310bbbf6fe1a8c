-- Filters (API v2 filters and their v1 view): one row per filter, its keywords and statuses
-- inside the record. Every timeline page reads the viewer's filters by account.
create table filters (
  id bigint primary key,
  account_id bigint not null,
  data jsonb not null
);
create index filters_account on filters (account_id, id);
create trigger filters_changed after insert or update or delete or truncate on filters
  for each statement execute function wren_notify_change();
