-- The change signal names the table written, after the writer ("application_name|table"), so a
-- process can drop what it memoised of that table alone (record-memo.ts): a post changes
-- statuses, not the accounts, tokens and apps every request reads. A payload without "|" (a
-- process from before this migration) still means "something changed".
create or replace function wren_notify_change() returns trigger language plpgsql as $$
begin
  perform pg_notify(
    'wren_changes',
    coalesce(current_setting('application_name', true), '') || '|' || tg_table_name
  );
  return null;
end;
$$;
