-- Cross-process change signal: every table an API answer can show gets a statement-level trigger
-- calling this, so other Wren processes hear of a write (LISTEN wren_changes) and drop the answers
-- they kept (Storage.version). Notifications with the same payload in one transaction fold into one.
-- The payload is the writer's application_name, unique per Wren process, so a process can skip its
-- own writes (it counted them as they resolved).
create or replace function wren_notify_change() returns trigger language plpgsql as $$
begin
  perform pg_notify('wren_changes', coalesce(current_setting('application_name', true), ''));
  return null;
end;
$$;
