-- One status per uri (ADR 0080): racing ingests of one remote post, in one process or several,
-- are settled by the insert itself, where the `remote-status:<uri>` keyed lock, taken and read
-- under (migration 0053) and given back, settled them: two statements and two commits per
-- ingested post, now none.
--
-- A database may hold two statuses under one uri, written before ingests took the lock or by a
-- path that never did. findByUri has always answered the newest (the highest id) of them, so that
-- one is kept; the older ones go, with their hashtag rows and their notifications (their authors'
-- and parents' counters follow through the row trigger, as for any deletion). Their ids are
-- unreachable by uri already; what still names them (a favourite, a timeline's entry) finds
-- nothing, as it finds a status forgotten by the retention sweep.
create temporary table wren_uri_older on commit drop as
  select id from (
    select id, row_number() over (partition by uri order by id desc) as newer from statuses
  ) ranked
  where newer > 1;
delete from status_tags where status_id in (select id from wren_uri_older);
delete from notifications where status_id in (select id from wren_uri_older);
delete from statuses where id in (select id from wren_uri_older);

drop index statuses_uri;
create unique index statuses_uri on statuses (uri);

-- A new remote status (ADR 0080): stored unless a status holds its uri, in which case that one is
-- answered (taken_key, taken_json) and nothing is written. ON CONFLICT (uri) DO NOTHING waits for
-- a racing insert of the uri to commit or roll back, so a conflict always has a winner to read:
-- the read that follows is a statement of its own, with a fresh snapshot (READ COMMITTED) taken
-- after that commit. Should the winner be deleted between the two (the retention sweep), the
-- insert is tried again. The author's counters are answered either way, as wren_put_status does
-- (migration 0049). An id already stored is an error here: new statuses have new ids.
create function wren_put_new_status(
  p_id bigint, p_account_id bigint, p_uri text, p_visibility text, p_local boolean,
  p_deleted boolean, p_has_media boolean, p_in_reply_to_id bigint,
  p_in_reply_to_account_id bigint, p_reblog_of_id bigint, p_tags text[], p_data jsonb,
  p_listed_tags text[]
) returns table (untagged text[], author_statuses int, author_last_at text,
  author_followers int, author_following int, author_version bigint, former_author text,
  taken_key text, taken_json text)
language plpgsql volatile as $$
begin
  untagged := '{}';
  loop
    insert into statuses (id, account_id, uri, visibility, local, deleted, has_media,
      in_reply_to_id, in_reply_to_account_id, reblog_of_id, tags, data)
    values (p_id, p_account_id, p_uri, p_visibility, p_local, p_deleted, p_has_media,
      p_in_reply_to_id, p_in_reply_to_account_id, p_reblog_of_id, p_tags, p_data)
    on conflict (uri) do nothing;
    exit when found;
    select s.id::text, s.data::text into taken_key, taken_json from statuses s
      where s.uri = p_uri;
    exit when taken_key is not null;
  end loop;
  if taken_key is null and cardinality(p_listed_tags) > 0 then
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

-- Migration 0052's gathered puts, each put new (wren_put_new_status) or not (wren_put_status) as
-- `p_new` says, answering the status a new put found under its uri. Beside 0052's, as
-- wren_take_lock_read_status (0053) is left: a process of the previous version still running on
-- the database during an upgrade calls them.
create function wren_put_statuses(
  p_ids bigint[], p_account_ids bigint[], p_uris text[], p_visibilities text[],
  p_locals boolean[], p_deleted boolean[], p_has_media boolean[], p_in_reply_to_ids bigint[],
  p_in_reply_to_account_ids bigint[], p_reblog_of_ids bigint[], p_tags jsonb[], p_data jsonb[],
  p_listed_tags jsonb[], p_new boolean[]
) returns table (pos int, untagged text[], author_statuses int, author_last_at text,
  author_followers int, author_following int, author_version bigint, former_author text,
  taken_key text, taken_json text)
language plpgsql volatile as $$
declare
  k int;
begin
  for k in
    select o.k from unnest(p_account_ids, p_ids) with ordinality as o(account, status, k)
    order by o.account, o.status, o.k
  loop
    if p_new[k] then
      return query select k, r.* from wren_put_new_status(p_ids[k], p_account_ids[k], p_uris[k],
        p_visibilities[k], p_locals[k], p_deleted[k], p_has_media[k], p_in_reply_to_ids[k],
        p_in_reply_to_account_ids[k], p_reblog_of_ids[k],
        array(select jsonb_array_elements_text(p_tags[k])), p_data[k],
        array(select jsonb_array_elements_text(p_listed_tags[k]))) r;
    else
      return query select k, r.*, null::text, null::text from wren_put_status(p_ids[k],
        p_account_ids[k], p_uris[k], p_visibilities[k], p_locals[k], p_deleted[k],
        p_has_media[k], p_in_reply_to_ids[k], p_in_reply_to_account_ids[k], p_reblog_of_ids[k],
        array(select jsonb_array_elements_text(p_tags[k])), p_data[k],
        array(select jsonb_array_elements_text(p_listed_tags[k]))) r;
    end if;
  end loop;
end;
$$;
