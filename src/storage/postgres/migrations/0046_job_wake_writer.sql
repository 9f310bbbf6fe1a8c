-- The job wake-up names its writer first, as the change signals do ("application_name|runAt";
-- runAt empty when the statement inserted nothing), so a runner skips the echo of its own
-- process's enqueue: that enqueue woke it directly already, and the echo, heard a moment later,
-- made a runner look again at a time of its own choosing (after a test had moved its clock, say),
-- taking jobs its process had not asked to run. An older runner reads the new payload as no time
-- and looks at the table, as for any wake-up it cannot read.
create or replace function wren_notify_jobs() returns trigger language plpgsql as $$
begin
  perform pg_notify(
    'wren_jobs',
    coalesce(current_setting('application_name', true), '') || '|' || coalesce(
      (select to_char(min(run_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from added),
      ''
    )
  );
  return null;
end;
$$;
