-- The change signal of statuses names the rows written ("application_name|statuses:id,id,…"), so
-- each process can keep statuses by id and forget just those (row-memo.ts, ADR 0033); with the
-- table alone, every post would empty every process's memo. One notification per statement, from
-- its transition table; a statement of more than 300 rows (a bulk load) names none, which means
-- "any status may have changed", as does TRUNCATE. 300 ids of at most 19 digits stay well under
-- NOTIFY's 8,000-byte payload. A statement that changed no row says nothing.
create or replace function wren_notify_status_rows() returns trigger language plpgsql as $$
declare
  n bigint;
  ids text;
begin
  select count(*), case when count(*) <= 300 then string_agg(id::text, ',') end
    into n, ids from changed_rows;
  if n = 0 then
    return null;
  end if;
  perform pg_notify(
    'wren_changes',
    coalesce(current_setting('application_name', true), '') || '|' || tg_table_name
      || coalesce(':' || ids, '')
  );
  return null;
end;
$$;

drop trigger statuses_changed on statuses;
create trigger statuses_changed_insert after insert on statuses
  referencing new table as changed_rows
  for each statement execute function wren_notify_status_rows();
create trigger statuses_changed_update after update on statuses
  referencing new table as changed_rows
  for each statement execute function wren_notify_status_rows();
create trigger statuses_changed_delete after delete on statuses
  referencing old table as changed_rows
  for each statement execute function wren_notify_status_rows();
create trigger statuses_changed_truncate after truncate on statuses
  for each statement execute function wren_notify_change();
