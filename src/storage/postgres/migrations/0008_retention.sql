-- The retention sweep (WREN_REMOTE_STATUS_RETENTION_DAYS) walks remote statuses below an id
-- cutoff, newest first (StatusStore.listRemote): deleted ones and reblogs are walked too, so the
-- index is on every remote row. Its removals delete rows (StatusStore.delete, PollStore.delete),
-- which the existing tables' primary keys and change triggers already serve.
create index statuses_remote on statuses (id) where not local;
