-- A status put (migration 0041's function) now also answers its author's counters as they stand
-- after it (the row triggers of migration 0013 ran at the end of its insert): the statuses count,
-- the newest status's creation time, followers and following, read as accountCountRows reads
-- them. The writing process keeps them (account-counts-memo.ts, ADR 0043 amended), so the answer
-- to a post, which shows its author's counters, sends no statement of its own for them.
drop function wren_put_status(bigint, bigint, text, text, boolean, boolean, boolean, bigint,
  bigint, bigint, text[], jsonb, text[]);
create function wren_put_status(
  p_id bigint, p_account_id bigint, p_uri text, p_visibility text, p_local boolean,
  p_deleted boolean, p_has_media boolean, p_in_reply_to_id bigint,
  p_in_reply_to_account_id bigint, p_reblog_of_id bigint, p_tags text[], p_data jsonb,
  p_listed_tags text[]
) returns table (untagged text[], author_statuses int, author_last_at text,
  author_followers int, author_following int, former_author text)
language plpgsql volatile as $$
begin
  select s.account_id::text into former_author from statuses s
    where s.id = p_id and s.account_id <> p_account_id;
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
  select coalesce(c.statuses, 0)::int, s.data->>'createdAt' into author_statuses, author_last_at
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
