-- Several status puts in one statement (status-store.ts, ADR 0062): the
-- puts a process is asked for while its previous put statement runs go together in the next,
-- each through wren_put_status (migration 0049) as before, and commit together. A post takes the
-- author's counters row lock (the counter trigger) and, through its NOTIFYs, the notification
-- queue's lock, both held until its commit is flushed: posts by one author, and any notifying
-- commits of the cluster, were one WAL flush after another. Gathered, many posts share one
-- commit, one flush and one hold of each lock. Each put still answers its own row: `pos` is its
-- place in the arrays (1-based).
--
-- The puts run in the order of their authors, then of their statuses, then as asked: two
-- gathered statements of two processes then take the counters rows of their authors in the same
-- order, which avoids most deadlocks between them (the database breaks any other, failing one
-- statement, whose puts the process then sends one by one); two puts of one status keep the order
-- they were asked in. Tags travel as a JSON array per status (an array of arrays must be
-- rectangular in SQL).
create function wren_put_statuses(
  p_ids bigint[], p_account_ids bigint[], p_uris text[], p_visibilities text[],
  p_locals boolean[], p_deleted boolean[], p_has_media boolean[], p_in_reply_to_ids bigint[],
  p_in_reply_to_account_ids bigint[], p_reblog_of_ids bigint[], p_tags jsonb[], p_data jsonb[],
  p_listed_tags jsonb[]
) returns table (pos int, untagged text[], author_statuses int, author_last_at text,
  author_followers int, author_following int, author_version bigint, former_author text)
language plpgsql volatile as $$
declare
  k int;
begin
  for k in
    select o.k from unnest(p_account_ids, p_ids) with ordinality as o(account, status, k)
    order by o.account, o.status, o.k
  loop
    return query select k, r.* from wren_put_status(p_ids[k], p_account_ids[k], p_uris[k],
      p_visibilities[k], p_locals[k], p_deleted[k], p_has_media[k], p_in_reply_to_ids[k],
      p_in_reply_to_account_ids[k], p_reblog_of_ids[k],
      array(select jsonb_array_elements_text(p_tags[k])), p_data[k],
      array(select jsonb_array_elements_text(p_listed_tags[k]))) r;
  end loop;
end;
$$;
