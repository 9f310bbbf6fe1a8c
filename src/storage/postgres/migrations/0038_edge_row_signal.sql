-- The change signal of edges names the pairs written ("application_name|edges:pair,pair,…"), so
-- each process can keep edges by pair and forget just those (edge-memo.ts, ADR 0041): with the
-- table alone, every favourite or follow anywhere would empty every process's memo of the
-- viewers' relationships. A pair is "kind account target", each id escaped ('%', ',', '|' and
-- ' ' as %25, %2C, %7C, %20) so that a target of any text (a tag, a domain) names one pair and
-- the payload still reads as "writer|table:name,name". One notification per statement, from its
-- transition tables (an update names the old and the new pairs); a statement of more than 200
-- rows, or whose names would not fit NOTIFY's 8,000 bytes, names none, which means "any edge may
-- have changed", as does TRUNCATE. A statement that changed no row says nothing.
create or replace function wren_edge_pair(kind text, account_id text, target_id text)
returns text language sql immutable as $$
  select kind
    || ' ' || replace(replace(replace(replace(account_id, '%', '%25'), ',', '%2C'), '|', '%7C'), ' ', '%20')
    || ' ' || replace(replace(replace(replace(target_id, '%', '%25'), ',', '%2C'), '|', '%7C'), ' ', '%20')
$$;

-- Sends "writer|table:names" for `names` (distinct, comma-separated, at most `n` of them known),
-- or "writer|table" when there are too many to name. Nothing when no row changed.
create or replace function wren_notify_named(tbl text, n bigint, names text) returns void
language plpgsql as $$
begin
  if n = 0 then
    return;
  end if;
  perform pg_notify(
    'wren_changes',
    coalesce(current_setting('application_name', true), '') || '|' || tbl
      || coalesce(':' || case when octet_length(names) <= 7000 then names end, '')
  );
end;
$$;

create or replace function wren_notify_edge_rows() returns trigger language plpgsql as $$
declare
  n bigint;
  names text;
begin
  if tg_op = 'INSERT' then
    select count(*) into n from new_rows;
    if n <= 200 then
      select string_agg(distinct wren_edge_pair(kind, account_id, target_id), ',') into names
        from new_rows;
    end if;
  elsif tg_op = 'DELETE' then
    select count(*) into n from old_rows;
    if n <= 200 then
      select string_agg(distinct wren_edge_pair(kind, account_id, target_id), ',') into names
        from old_rows;
    end if;
  else
    select count(*) into n from new_rows;
    if n <= 100 then
      select string_agg(distinct pair, ',') into names from (
        select wren_edge_pair(kind, account_id, target_id) as pair from old_rows
        union all
        select wren_edge_pair(kind, account_id, target_id) from new_rows
      ) pairs;
    end if;
  end if;
  perform wren_notify_named(tg_table_name, n, names);
  return null;
end;
$$;

drop trigger edges_changed on edges;
create trigger edges_changed_insert after insert on edges
  referencing new table as new_rows
  for each statement execute function wren_notify_edge_rows();
create trigger edges_changed_update after update on edges
  referencing old table as old_rows new table as new_rows
  for each statement execute function wren_notify_edge_rows();
create trigger edges_changed_delete after delete on edges
  referencing old table as old_rows
  for each statement execute function wren_notify_edge_rows();
create trigger edges_changed_truncate after truncate on edges
  for each statement execute function wren_notify_change();

-- A viewer's boosts (StatusStore.findReblogs: is each status of a page reblogged by the viewer)
-- kept per process by "account original" (reblog-memo.ts): the statuses signal names a boost by
-- its own id, which a process that has not seen the boost cannot connect to the pair it kept as
-- "not boosted". So a write to statuses that touches boosts also signals
-- "writer|reblogs:account original,…", old and new rows alike (a boost undone is an update of its
-- `deleted`). A statement without boosts (every post, every edit) sends nothing more; TRUNCATE
-- names none.
create or replace function wren_notify_reblog_rows() returns trigger language plpgsql as $$
declare
  n bigint;
  names text;
begin
  if tg_op = 'TRUNCATE' then
    n := 1;
  elsif tg_op = 'INSERT' then
    select count(*), case when count(*) <= 300 then
        string_agg(distinct account_id::text || ' ' || reblog_of_id::text, ',') end
      into n, names from new_rows where reblog_of_id is not null;
  elsif tg_op = 'DELETE' then
    select count(*), case when count(*) <= 300 then
        string_agg(distinct account_id::text || ' ' || reblog_of_id::text, ',') end
      into n, names from old_rows where reblog_of_id is not null;
  else
    select count(*), case when count(*) <= 300 then
        string_agg(distinct account_id::text || ' ' || reblog_of_id::text, ',') end
      into n, names from (
        select account_id, reblog_of_id from old_rows where reblog_of_id is not null
        union all
        select account_id, reblog_of_id from new_rows where reblog_of_id is not null
      ) boosts;
  end if;
  perform wren_notify_named('reblogs', n, names);
  return null;
end;
$$;

create trigger statuses_reblogs_changed_insert after insert on statuses
  referencing new table as new_rows
  for each statement execute function wren_notify_reblog_rows();
create trigger statuses_reblogs_changed_update after update on statuses
  referencing old table as old_rows new table as new_rows
  for each statement execute function wren_notify_reblog_rows();
create trigger statuses_reblogs_changed_delete after delete on statuses
  referencing old table as old_rows
  for each statement execute function wren_notify_reblog_rows();
create trigger statuses_reblogs_truncated after truncate on statuses
  for each statement execute function wren_notify_reblog_rows();
