-- A version on each author's statuses counters (migration 0013), raised by the row trigger with
-- every change to the row, and answered by a status put with the counters it reads back
-- (migration 0048). The row's lock orders the writes of one author's counters, so the versions
-- do too, whichever connection's answer reaches the process first: of two puts by one author in
-- flight at once, the process keeps the higher version's counters (row-memo.ts watchWrite,
-- ADR 0043 amended), where without an order it kept neither. A row is created at version 1; an
-- author without a row answers 0.
--
-- And a put costs the database less (docs/PERFORMANCE.md, "PostgreSQL status creation, round
-- seven"), each change told as before:
-- * the rows' signal (migration 0039) reads its transition table with a statement written out
--   for each naming column, planned once per table, where a dynamic EXECUTE planned it again on
--   every call (four calls a put, a third of the put's time in the function);
-- * a new status is inserted without ON CONFLICT … DO UPDATE, which fires the UPDATE statement
--   triggers too (three signals reading empty transition tables); a status already there is
--   updated, and only then are its former author read and its tag rows removed (a new status has
--   none);
-- * an author's counters are updated, and inserted only when the author has none yet, for the
--   same reason.
alter table account_status_counts add column version bigint not null default 1;

create or replace function wren_count_status(s statuses, sign int) returns void
language plpgsql as $$
begin
  if s.deleted then
    return;
  end if;
  if sign > 0 then
    update account_status_counts c
      set statuses = c.statuses + 1, last_status_id = greatest(c.last_status_id, s.id),
        version = c.version + 1
      where c.account_id = s.account_id;
    if not found then
      insert into account_status_counts as c (account_id, statuses, last_status_id)
        values (s.account_id, 1, s.id)
        on conflict (account_id) do update
          set statuses = c.statuses + 1, last_status_id = greatest(c.last_status_id, s.id),
            version = c.version + 1;
    end if;
  else
    -- The trigger runs after the row changed, so the newest remaining status is found in the
    -- table as it now is (statuses_account covers the query).
    update account_status_counts c
      set statuses = c.statuses - 1,
          last_status_id = case when c.last_status_id = s.id then (
            select max(id) from statuses
            where account_id = s.account_id and not deleted
          ) else c.last_status_id end,
          version = c.version + 1
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

drop function wren_put_status(bigint, bigint, text, text, boolean, boolean, boolean, bigint,
  bigint, bigint, text[], jsonb, text[]);
create function wren_put_status(
  p_id bigint, p_account_id bigint, p_uri text, p_visibility text, p_local boolean,
  p_deleted boolean, p_has_media boolean, p_in_reply_to_id bigint,
  p_in_reply_to_account_id bigint, p_reblog_of_id bigint, p_tags text[], p_data jsonb,
  p_listed_tags text[]
) returns table (untagged text[], author_statuses int, author_last_at text,
  author_followers int, author_following int, author_version bigint, former_author text)
language plpgsql volatile as $$
begin
  insert into statuses (id, account_id, uri, visibility, local, deleted, has_media,
    in_reply_to_id, in_reply_to_account_id, reblog_of_id, tags, data)
  values (p_id, p_account_id, p_uri, p_visibility, p_local, p_deleted, p_has_media,
    p_in_reply_to_id, p_in_reply_to_account_id, p_reblog_of_id, p_tags, p_data)
  on conflict (id) do nothing;
  if found then
    untagged := '{}';
  else
    -- The row's lock (the update's) orders concurrent puts of one status; each later statement
    -- of a volatile function takes a fresh snapshot (READ COMMITTED), so the tag rows rewritten
    -- next belong to the record that ends up stored.
    select s.account_id::text into former_author from statuses s
      where s.id = p_id and s.account_id <> p_account_id;
    update statuses set
      account_id = p_account_id, uri = p_uri, visibility = p_visibility, local = p_local,
      deleted = p_deleted, has_media = p_has_media, in_reply_to_id = p_in_reply_to_id,
      in_reply_to_account_id = p_in_reply_to_account_id, reblog_of_id = p_reblog_of_id,
      tags = p_tags, data = p_data
      where id = p_id;
    with gone as (delete from status_tags where status_id = p_id returning tag)
    select coalesce(array_agg(tag), '{}') into untagged from gone;
  end if;
  if cardinality(p_listed_tags) > 0 then
    insert into status_tags (tag, status_id, account_id, local, has_media)
    select tag, p_id, p_account_id, p_local, p_has_media from unnest(p_listed_tags) as t(tag);
  end if;
  select coalesce(c.statuses, 0)::int, s.data->>'createdAt', coalesce(c.version, 0)
    into author_statuses, author_last_at, author_version
    from (select p_account_id as id) a
    left join account_status_counts c on c.account_id = a.id
    left join statuses s on s.id = c.last_status_id;
  select coalesce((select n from edge_counts e
      where e.kind = 'follows' and e.side = 'to' and e.id = p_account_id::text), 0)::int,
    coalesce((select n from edge_counts e
      where e.kind = 'follows' and e.side = 'from' and e.id = p_account_id::text), 0)::int
    into author_followers, author_following;
  return next;
end;
$$;

-- Migration 0039's rows' signal, its transition table read by a statement per naming column.
create or replace function wren_notify_status_rows() returns trigger language plpgsql as $$
declare
  n bigint;
  ids text;
begin
  case coalesce(tg_argv[0], 'id')
    when 'account_id' then
      select count(*), case when count(*) <= 300 then string_agg(account_id::text, ',') end
        into n, ids from changed_rows;
    when 'status_id' then
      select count(*), case when count(*) <= 300 then string_agg(status_id::text, ',') end
        into n, ids from changed_rows;
    else
      select count(*), case when count(*) <= 300 then string_agg(id::text, ',') end
        into n, ids from changed_rows;
  end case;
  if n = 0 then
    return null;
  end if;
  perform pg_notify(
    'wren_changes',
    coalesce(current_setting('application_name', true), '') || '|' || tg_table_name
      || coalesce(':' || ids, '')
  );
  return null;
end;
$$;
