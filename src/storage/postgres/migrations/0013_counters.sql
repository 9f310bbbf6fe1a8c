-- Counters kept with the rows they count, so that showing a status or an account costs a key
-- lookup however many statuses, replies, boosts, favourites or followers there are. Counting them
-- on every read (`count(*)` over an index range) cost milliseconds per account with tens of
-- thousands of statuses, on every page that shows that account (docs/PERFORMANCE.md). Row
-- triggers update them in the transaction that changes the rows, so they are exactly as durable
-- and as visible as the change itself, whichever process made it. Rows reaching zero are kept.

-- Per author: statuses not deleted, and the newest of them (its id; "newest" is the highest id,
-- as the lists order them).
create table account_status_counts (
  account_id bigint primary key,
  statuses bigint not null,
  last_status_id bigint
);

-- Per status: replies and boosts that are not deleted.
create table status_counts (
  status_id bigint primary key,
  replies bigint not null,
  reblogs bigint not null
);

-- Per edge kind, side ('from': the account's edges; 'to': the target's) and id.
create table edge_counts (
  kind text not null,
  side text not null,
  id text not null,
  n bigint not null,
  primary key (kind, side, id)
);

create or replace function wren_count_status(s statuses, sign int) returns void
language plpgsql as $$
begin
  if s.deleted then
    return;
  end if;
  if sign > 0 then
    insert into account_status_counts as c (account_id, statuses, last_status_id)
      values (s.account_id, 1, s.id)
      on conflict (account_id) do update
        set statuses = c.statuses + 1, last_status_id = greatest(c.last_status_id, s.id);
  else
    -- The trigger runs after the row changed, so the newest remaining status is found in the
    -- table as it now is (statuses_account covers the query).
    update account_status_counts c
      set statuses = c.statuses - 1,
          last_status_id = case when c.last_status_id = s.id then (
            select max(id) from statuses
            where account_id = s.account_id and not deleted
          ) else c.last_status_id end
      where c.account_id = s.account_id;
  end if;
  if s.in_reply_to_id is not null then
    insert into status_counts as c (status_id, replies, reblogs)
      values (s.in_reply_to_id, greatest(sign, 0), 0)
      on conflict (status_id) do update set replies = c.replies + sign;
  end if;
  if s.reblog_of_id is not null then
    insert into status_counts as c (status_id, replies, reblogs)
      values (s.reblog_of_id, 0, greatest(sign, 0))
      on conflict (status_id) do update set reblogs = c.reblogs + sign;
  end if;
end;
$$;

create or replace function wren_statuses_counted() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform wren_count_status(new, 1);
  elsif tg_op = 'DELETE' then
    perform wren_count_status(old, -1);
  elsif (old.deleted, old.account_id, old.in_reply_to_id, old.reblog_of_id)
      is distinct from (new.deleted, new.account_id, new.in_reply_to_id, new.reblog_of_id) then
    perform wren_count_status(old, -1);
    perform wren_count_status(new, 1);
  end if;
  return null;
end;
$$;

create trigger statuses_counted after insert or update or delete on statuses
  for each row execute function wren_statuses_counted();

create or replace function wren_count_edge(e edges, sign int) returns void
language plpgsql as $$
begin
  insert into edge_counts as c (kind, side, id, n) values (e.kind, 'from', e.account_id, greatest(sign, 0))
    on conflict (kind, side, id) do update set n = c.n + sign;
  insert into edge_counts as c (kind, side, id, n) values (e.kind, 'to', e.target_id, greatest(sign, 0))
    on conflict (kind, side, id) do update set n = c.n + sign;
end;
$$;

create or replace function wren_edges_counted() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform wren_count_edge(new, 1);
  elsif tg_op = 'DELETE' then
    perform wren_count_edge(old, -1);
  elsif (old.kind, old.account_id, old.target_id)
      is distinct from (new.kind, new.account_id, new.target_id) then
    perform wren_count_edge(old, -1);
    perform wren_count_edge(new, 1);
  end if;
  return null;
end;
$$;

create trigger edges_counted after insert or update or delete on edges
  for each row execute function wren_edges_counted();

-- A truncated table leaves nothing to count. (delete, not truncate: a statement that truncates
-- the counted table and its counters together, as the tests' reset does, has them in use.)
create or replace function wren_status_counts_truncated() returns trigger language plpgsql as $$
begin
  delete from account_status_counts;
  delete from status_counts;
  return null;
end;
$$;
create trigger statuses_truncated after truncate on statuses
  for each statement execute function wren_status_counts_truncated();

create or replace function wren_edge_counts_truncated() returns trigger language plpgsql as $$
begin
  delete from edge_counts;
  return null;
end;
$$;
create trigger edges_truncated after truncate on edges
  for each statement execute function wren_edge_counts_truncated();

-- What the tables hold already.
insert into account_status_counts (account_id, statuses, last_status_id)
  select account_id, count(*), max(id) from statuses where not deleted group by account_id;
insert into status_counts (status_id, replies, reblogs)
  select id, sum(replies), sum(reblogs) from (
    select in_reply_to_id as id, count(*) as replies, 0 as reblogs from statuses
      where in_reply_to_id is not null and not deleted group by in_reply_to_id
    union all
    select reblog_of_id, 0, count(*) from statuses
      where reblog_of_id is not null and not deleted group by reblog_of_id
  ) counted group by id;
insert into edge_counts (kind, side, id, n)
  select kind, 'from', account_id, count(*) from edges group by kind, account_id
  union all
  select kind, 'to', target_id, count(*) from edges group by kind, target_id;
