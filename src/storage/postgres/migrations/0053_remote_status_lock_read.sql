-- The keyed lock of a remote status (`remote-status:<uri>`, lease-locks.ts) taken and the status
-- stored under that uri read in one round trip (ADR 0063): ingesting a remote post took the lock
-- in one statement and read the status again under it in a second.
--
-- PL/pgSQL because the read must see what the lock's previous holder committed before it gave
-- the lock back: one SQL statement reads the snapshot taken as it starts, which may predate that
-- commit while its insert already finds the lock free, and so could miss the status and store it
-- twice. Each statement of a volatile function takes a fresh snapshot: the read runs after the
-- insert took the lease, and so after the release the insert waited for, or saw.
create function wren_take_lock_read_status(
  p_key text, p_holder text, p_lease_seconds integer, p_uri text
) returns table (taken boolean, status_key text, status_json text)
language plpgsql volatile as $$
begin
  insert into coordination_locks as l (key, holder, expires_at)
  values (p_key, p_holder, now() + make_interval(secs => p_lease_seconds))
  on conflict (key) do update
    set holder = excluded.holder, expires_at = excluded.expires_at
    where l.expires_at <= now();
  if not found then
    return query select false, null::text, null::text;
    return;
  end if;
  -- As the status store's findByUri: should two statuses claim one uri, the newest answers.
  return query
    select true, s.id::text, s.data::text from statuses s
    where s.uri = p_uri order by s.id desc limit 1;
  if not found then
    return query select true, null::text, null::text;
  end if;
end;
$$;
