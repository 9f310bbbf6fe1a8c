-- Change signals naming what a page's hydration reads besides the statuses themselves, so each
-- process can keep those answers too and forget just the rows written (ADR 0042):
--
-- * the counter tables (migration 0013): "writer|status_counts:id,…" and
--   "writer|account_status_counts:id,…" name the counted status or account; the edge counts that
--   are shown (favourites and quotes of a status, follows of an account) name theirs under
--   "writer|edge_counts/<kind>/<side>:id,…", one notification per kind and side written;
-- * the lists read off statuses: "writer|status_accounts:id,…" names the authors whose statuses
--   a statement wrote (their lists and home timelines changed), and "writer|public_timeline"
--   says a statement wrote a row that is or was in the public timelines.
--
-- As in migration 0037: one notification per statement from its transition tables, none for a
-- statement that changed no row (or none of the kinds shown), and none named past 300 rows (200
-- for edge counts, whose names are longer), which means "any of them may have changed", as does
-- TRUNCATE. An edge count id holding "," or "|" (no shown kind has one) also names none.

-- The rows' signal of migration 0037, now for any table: the column naming the rows is the
-- trigger's argument (statuses: id, as before).
create or replace function wren_notify_status_rows() returns trigger language plpgsql as $$
declare
  n bigint;
  ids text;
begin
  execute format(
    'select count(*), case when count(*) <= 300 then string_agg(%I::text, '','') end
       from changed_rows',
    coalesce(tg_argv[0], 'id')
  ) into n, ids;
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

create or replace function wren_notify_edge_count_rows() returns trigger language plpgsql as $$
declare
  g record;
begin
  for g in
    select kind, side, count(*) as n, bool_or(id ~ '[,|]') as odd, string_agg(id, ',') as ids
    from changed_rows
    where kind = 'follows' or (kind in ('favourites', 'quotes') and side = 'to')
    group by kind, side
  loop
    perform pg_notify(
      'wren_changes',
      coalesce(current_setting('application_name', true), '') || '|edge_counts/' || g.kind
        || '/' || g.side || case when g.n <= 200 and not g.odd then ':' || g.ids else '' end
    );
  end loop;
  return null;
end;
$$;

-- Each counter table: its rows' signal after every insert, update and delete statement, the
-- table's after a truncation.
do $$
declare
  counted record;
  event text;
begin
  for counted in
    select * from (values
      ('status_counts', 'wren_notify_status_rows(''status_id'')'),
      ('account_status_counts', 'wren_notify_status_rows(''account_id'')'),
      ('edge_counts', 'wren_notify_edge_count_rows()')
    ) as t(tbl, fn)
  loop
    foreach event in array array['insert', 'update', 'delete'] loop
      execute format(
        'create trigger %I after %s on %I referencing %s table as changed_rows
           for each statement execute function %s',
        counted.tbl || '_changed_' || event, event, counted.tbl,
        case when event = 'delete' then 'old' else 'new' end, counted.fn
      );
    end loop;
    execute format(
      'create trigger %I after truncate on %I for each statement execute function wren_notify_change()',
      counted.tbl || '_changed_truncate', counted.tbl
    );
  end loop;
end;
$$;

-- The lists' signals, beside the rows' own (migration 0037). An update's old rows count too: a
-- status deleted by an update leaves the public timeline it was in.
create or replace function wren_notify_status_lists() returns trigger language plpgsql as $$
declare
  n bigint;
  ids text;
  public boolean;
  writer text := coalesce(current_setting('application_name', true), '');
begin
  if tg_op = 'UPDATE' then
    select count(*), case when count(*) <= 300 then string_agg(account_id::text, ',') end,
        coalesce(bool_or(public_timeline), false)
      into n, ids, public
      from (
        select account_id, bool_or(public_timeline) as public_timeline from (
          select account_id, public_timeline from changed_rows
          union all select account_id, public_timeline from old_rows
        ) both_sides group by account_id
      ) authors;
  else
    select count(*), case when count(*) <= 300 then string_agg(account_id::text, ',') end,
        coalesce(bool_or(public_timeline), false)
      into n, ids, public
      from (
        select account_id, bool_or(public_timeline) as public_timeline
        from changed_rows group by account_id
      ) authors;
  end if;
  if n = 0 then
    return null;
  end if;
  perform pg_notify('wren_changes', writer || '|status_accounts' || coalesce(':' || ids, ''));
  if public then
    perform pg_notify('wren_changes', writer || '|public_timeline');
  end if;
  return null;
end;
$$;

create trigger statuses_lists_changed_insert after insert on statuses
  referencing new table as changed_rows
  for each statement execute function wren_notify_status_lists();
create trigger statuses_lists_changed_update after update on statuses
  referencing old table as old_rows new table as changed_rows
  for each statement execute function wren_notify_status_lists();
create trigger statuses_lists_changed_delete after delete on statuses
  referencing old table as changed_rows
  for each statement execute function wren_notify_status_lists();

-- The preview cards and the statuses' links to them (["wren", "previewCard", url] and
-- ["wren", "statusCard", id] in kv), read for every page of statuses with links: their writes
-- name the entry ("writer|kv_rows:<name>", the first 16 hex digits of the md5 of the key's
-- segments joined by U+001F, kv-memo.ts), one notification per row, as cards are written once
-- per fetched link. A truncation of kv names none. The other kv keys still write without one.
create or replace function wren_notify_kv_row() returns trigger language plpgsql as $$
declare
  name text := '';
begin
  if tg_level = 'ROW' then
    name := ':' || left(md5(array_to_string(
      case when tg_op = 'DELETE' then old.key else new.key end, chr(31))), 16);
  end if;
  perform pg_notify(
    'wren_changes',
    coalesce(current_setting('application_name', true), '') || '|kv_rows' || name
  );
  return null;
end;
$$;

create trigger kv_rows_changed_insert after insert on kv for each row
  when (new.key[1:2] in (array['wren', 'previewCard'], array['wren', 'statusCard']))
  execute function wren_notify_kv_row();
create trigger kv_rows_changed_update after update on kv for each row
  when (new.key[1:2] in (array['wren', 'previewCard'], array['wren', 'statusCard']))
  execute function wren_notify_kv_row();
create trigger kv_rows_changed_delete after delete on kv for each row
  when (old.key[1:2] in (array['wren', 'previewCard'], array['wren', 'statusCard']))
  execute function wren_notify_kv_row();
create trigger kv_rows_changed_truncate after truncate on kv
  for each statement execute function wren_notify_kv_row();
