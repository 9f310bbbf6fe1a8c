-- Hashtag timelines (status_tags) are kept per process as pages are (status-list-memo.ts, ADR
-- 0042): their signal now names the tags a statement wrote or removed
-- ("writer|status_tags:tag,tag,…", distinct), so each process forgets just those tags' pages.
-- It said only "writer", on every statement, even a put's removal of no row. As in migrations
-- 0037 and 0039: one notification per statement from its transition tables, none for a statement
-- that changed no row; none named (any tag may have changed) past 300 tags or 4,000 bytes, or
-- when a tag holds "," or "|" (a remote one may), as after TRUNCATE.
create or replace function wren_notify_status_tags() returns trigger language plpgsql as $$
declare
  n bigint;
  ids text;
  odd boolean;
begin
  if tg_op = 'UPDATE' then
    select count(*), string_agg(tag, ','), coalesce(bool_or(tag ~ '[,|]'), false)
      into n, ids, odd
      from (select tag from changed_rows union select tag from old_rows) t;
  else
    select count(*), string_agg(tag, ','), coalesce(bool_or(tag ~ '[,|]'), false)
      into n, ids, odd
      from (select distinct tag from changed_rows) t;
  end if;
  if n = 0 then
    return null;
  end if;
  perform pg_notify(
    'wren_changes',
    coalesce(current_setting('application_name', true), '') || '|status_tags'
      || case when n <= 300 and octet_length(ids) <= 4000 and not odd then ':' || ids else '' end
  );
  return null;
end;
$$;

drop trigger status_tags_changed on status_tags;
create trigger status_tags_changed_insert after insert on status_tags
  referencing new table as changed_rows
  for each statement execute function wren_notify_status_tags();
create trigger status_tags_changed_update after update on status_tags
  referencing old table as old_rows new table as changed_rows
  for each statement execute function wren_notify_status_tags();
create trigger status_tags_changed_delete after delete on status_tags
  referencing old table as changed_rows
  for each statement execute function wren_notify_status_tags();
create trigger status_tags_changed_truncate after truncate on status_tags
  for each statement execute function wren_notify_change();

-- A status put (migration 0037's function) now answers the tags its status was listed under
-- before, which it removes: the writing process forgets those tags' pages at once, as it does
-- the new ones', where it would otherwise wait for its own signal to come back (an edit that
-- drops a tag, from a process that did not keep the old record).
drop function wren_put_status(bigint, bigint, text, text, boolean, boolean, boolean, bigint,
  bigint, bigint, text[], jsonb, text[]);
create function wren_put_status(
  p_id bigint, p_account_id bigint, p_uri text, p_visibility text, p_local boolean,
  p_deleted boolean, p_has_media boolean, p_in_reply_to_id bigint,
  p_in_reply_to_account_id bigint, p_reblog_of_id bigint, p_tags text[], p_data jsonb,
  p_listed_tags text[]
) returns text[] language plpgsql volatile as $$
declare
  untagged text[];
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
  with gone as (delete from status_tags where status_id = p_id returning tag)
  select coalesce(array_agg(tag), '{}') into untagged from gone;
  if cardinality(p_listed_tags) > 0 then
    insert into status_tags (tag, status_id, account_id, local, has_media)
    select tag, p_id, p_account_id, p_local, p_has_media from unnest(p_listed_tags) as t(tag);
  end if;
  return untagged;
end;
$$;

-- Trend reviews (["wren", "trendReview", kind, id]) are read on every hashtag timeline (is the
-- tag usable?) and every trends answer: kept per process like the preview cards (kv-memo.ts), so
-- their writes name the entry too (migration 0039's "kv_rows" signal, beside 0034's).
drop trigger kv_rows_changed_insert on kv;
drop trigger kv_rows_changed_update on kv;
drop trigger kv_rows_changed_delete on kv;
create trigger kv_rows_changed_insert after insert on kv for each row
  when (new.key[1:2] in (array['wren', 'previewCard'], array['wren', 'statusCard'],
    array['wren', 'trendReview']))
  execute function wren_notify_kv_row();
create trigger kv_rows_changed_update after update on kv for each row
  when (new.key[1:2] in (array['wren', 'previewCard'], array['wren', 'statusCard'],
      array['wren', 'trendReview'])
    or old.key[1:2] in (array['wren', 'previewCard'], array['wren', 'statusCard'],
      array['wren', 'trendReview']))
  execute function wren_notify_kv_row();
create trigger kv_rows_changed_delete after delete on kv for each row
  when (old.key[1:2] in (array['wren', 'previewCard'], array['wren', 'statusCard'],
    array['wren', 'trendReview']))
  execute function wren_notify_kv_row();
