-- The durable job queue (JobStore). Runners claim due rows with FOR UPDATE SKIP LOCKED and mark
-- them leased (lease_until, lease_owner); a lease that passes gives the job back to the others,
-- so a killed worker's job is taken by another. Jobs are no API answer: no change trigger.
-- Ids are text (recurring jobs have fixed names such as "kv-prune-a"); "C" collation so that
-- (length(id), id) orders numeric ids as compareIds does.
create table jobs (
  id text collate "C" primary key,
  run_at timestamptz not null,
  failed_at timestamptz,
  grp text,
  lease_until timestamptz,
  lease_owner text,
  data jsonb not null
);

-- claim, due and nextRunAt: the waiting jobs by due time.
create index jobs_waiting on jobs (run_at, length(id), id) where failed_at is null;
-- nextRunAt: when the first lease passes.
create index jobs_leased on jobs (lease_until) where lease_until is not null and failed_at is null;
-- failed: most recent failure first.
create index jobs_failed on jobs (failed_at, length(id), id) where failed_at is not null;
-- advanceGroup.
create index jobs_group on jobs (grp) where grp is not null and failed_at is null;

-- Wake-ups: idle runners of every process LISTEN on wren_jobs and look at once when jobs are
-- added (advanceGroup notifies itself). Not the change signal: a job is no API answer. Sent at
-- commit, so a job written in a transaction with the write that caused it wakes runners only
-- once it is visible.
create function wren_notify_jobs() returns trigger language plpgsql as $$
begin
  perform pg_notify('wren_jobs', '');
  return null;
end;
$$;
create trigger jobs_added after insert on jobs
  for each statement execute function wren_notify_jobs();
