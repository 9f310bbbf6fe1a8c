-- The job wake-up names when the earliest job it announces falls due (ISO, UTC), so a runner
-- whose timer already fires sooner need not ask the table (JobStore.watch; every post records
-- its event a minute ahead, and each such wake-up cost every idle runner a query). Empty when the
-- statement inserted nothing (an upsert that only updated): then runners look as before.
create or replace function wren_notify_jobs() returns trigger language plpgsql as $$
begin
  perform pg_notify(
    'wren_jobs',
    coalesce(
      (select to_char(min(run_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from added),
      ''
    )
  );
  return null;
end;
$$;
drop trigger jobs_added on jobs;
create trigger jobs_added after insert on jobs
  referencing new table as added
  for each statement execute function wren_notify_jobs();
