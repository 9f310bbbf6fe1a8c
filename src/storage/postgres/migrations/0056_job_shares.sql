-- The part many jobs carry alike (Job.shared: a fan-out's activity and the sender's keys, 8 of
-- each delivery's 9 kB, the same in its 1,000 jobs) is stored once per name (ADR 0067). A job's
-- row names it in `share`; its `data` is the record without the payload's `shared` property, which
-- the store puts back as it reads the row. A share outlives its last job by a minute or more:
-- each insert of jobs naming it marks it `touched`, and a sweep removes the shares touched over a
-- minute ago that no job names (a fan-out's later jobs go in statements of their own, which may
-- come after its first job is done).
create table job_shares (
  key text primary key,
  data json not null,
  touched timestamptz not null default now()
);
create index job_shares_touched on job_shares (touched);
-- Compressed as the server does by default: a share is written once per fan-out, not per job,
-- so lz4's saving over pglz (ADR 0064) does not matter here.

alter table jobs add column share text;
create index jobs_share on jobs (share) where share is not null;
