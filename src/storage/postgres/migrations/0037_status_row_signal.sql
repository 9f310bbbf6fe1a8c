-- The change signal of statuses names the rows written ("application_name|statuses:id,id,…"), so
-- each process can keep statuses by id and forget just those (row-memo.ts, ADR 0033); with the
-- table alone, every post would empty every process's memo. One notification per statement, from
-- its transition table; a statement of more than 300 rows (a bulk load) names none, which means
-- "any status may have changed", as does TRUNCATE. 300 ids of at most 19 digits stay well under
-- NOTIFY's 8,000-byte payload. A statement that changed no row says nothing.
create or replace function wren_notify_status_rows() returns trigger language plpgsql as $$
declare
  n bigint;
  ids text;
begin
  select count(*), case when count(*) <= 300 then string_agg(id::text, ',') end
    into n, ids from changed_rows;
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

drop trigger statuses_changed on statuses;
create trigger statuses_changed_insert after insert on statuses
  referencing new table as changed_rows
  for each statement execute function wren_notify_status_rows();
create trigger statuses_changed_update after update on statuses
  referencing new table as changed_rows
  for each statement execute function wren_notify_status_rows();
create trigger statuses_changed_delete after delete on statuses
  referencing old table as changed_rows
  for each statement execute function wren_notify_status_rows();
create trigger statuses_changed_truncate after truncate on statuses
  for each statement execute function wren_notify_change();

-- A status put in one statement (status-store.ts): the row, then its hashtag rows rewritten,
-- as the transaction of three statements did (three round trips with its begin and commit).
-- The row first: its lock orders concurrent puts of one status, and each later statement of a
-- volatile function takes a fresh snapshot (READ COMMITTED), so the tag rows rewritten next
-- always belong to the record that ends up stored. `listed_tags`: the hashtag timelines' rows
-- (empty unless a public original).
create or replace function wren_put_status(
  p_id bigint, p_account_id bigint, p_uri text, p_visibility text, p_local boolean,
  p_deleted boolean, p_has_media boolean, p_in_reply_to_id bigint,
  p_in_reply_to_account_id bigint, p_reblog_of_id bigint, p_tags text[], p_data jsonb,
  p_listed_tags text[]
) returns void language plpgsql volatile as $$
begin
  insert into statuses (id, account_id, uri, visibility, local, deleted, has_media,
    in_reply_to_id, in_reply_to_account_id, reblog_of_id, tags, data)
  values (p_id, p_account_id, p_uri, p_visibility, p_local, p_deleted, p_has_media,
    p_in_reply_to_id, p_in_reply_to_account_id, p_reblog_of_id, p_tags, p_data)
  on conflict (id) do update set
    account_id = excluded.account_id, uri = excluded.uri,
    visibility = excluded.visibility, local = excluded.local,
    deleted = excluded.deleted, has_media = excluded.has_media,
    in_reply_to_id = excluded.in_reply_to_id,
    in_reply_to_account_id = excluded.in_reply_to_account_id,
    reblog_of_id = excluded.reblog_of_id, tags = excluded.tags, data = excluded.data;
  delete from status_tags where status_id = p_id;
  if cardinality(p_listed_tags) > 0 then
    insert into status_tags (tag, status_id, account_id, local, has_media)
    select tag, p_id, p_account_id, p_local, p_has_media from unnest(p_listed_tags) as t(tag);
  end if;
end;
$$;
