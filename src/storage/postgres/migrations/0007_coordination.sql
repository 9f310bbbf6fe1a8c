-- What keeps several Wren processes on one database correct where one process relied on its
-- memory (the Coordination port, storage/postgres/coordination.ts). None of it is shown by the
-- API, so no change trigger.

-- Keyed locks as leases: a row per held key, taken by an insert (or by taking over an expired
-- row) and renewed while the work runs; a process that dies leaves its rows to expire. Leases
-- rather than advisory locks: a waiting or holding process keeps no connection out of the pool.
create table coordination_locks (
  key text primary key,
  holder text not null,
  expires_at timestamptz not null
);

-- Fixed-window counters of the rate limits, shared by every process. Times are milliseconds
-- since the epoch on the callers' clock, as the windows' X-RateLimit-Reset shows them.
create table coordination_counters (
  key text primary key,
  used bigint not null,
  reset_at bigint not null
);
create index coordination_counters_reset_at on coordination_counters (reset_at);

-- Id-generator slots (domain/ids.ts): each live process leases one, so ids minted in the same
-- millisecond by two processes differ. last_ms is how far the holder's ids have gone (recorded at
-- each renewal), so a later holder of the slot starts after it; released: given back at a clean
-- close (last_ms is then exact).
create table id_slots (
  slot integer primary key,
  holder text not null,
  expires_at timestamptz not null,
  last_ms bigint not null,
  released boolean not null
);
create index id_slots_expires_at on id_slots (expires_at);
