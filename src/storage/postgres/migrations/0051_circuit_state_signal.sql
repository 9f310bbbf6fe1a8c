-- Fedify's circuit-breaker states (["_fedify", "circuit", host] in kv) are read twice for every
-- delivery (before the send, and the success recorded after it), a round trip each, when almost
-- none exists (a host that answers has none). They are kept per process like the preview cards
-- (kv-memo.ts), so their writes name the entry too (migration 0039's "kv_rows" signal, as 0041
-- added the trend reviews). They are written only when a host fails or comes back.
drop trigger kv_rows_changed_insert on kv;
drop trigger kv_rows_changed_update on kv;
drop trigger kv_rows_changed_delete on kv;
create trigger kv_rows_changed_insert after insert on kv for each row
  when (new.key[1:2] in (array['wren', 'previewCard'], array['wren', 'statusCard'],
    array['wren', 'trendReview'], array['_fedify', 'circuit']))
  execute function wren_notify_kv_row();
create trigger kv_rows_changed_update after update on kv for each row
  when (new.key[1:2] in (array['wren', 'previewCard'], array['wren', 'statusCard'],
      array['wren', 'trendReview'], array['_fedify', 'circuit'])
    or old.key[1:2] in (array['wren', 'previewCard'], array['wren', 'statusCard'],
      array['wren', 'trendReview'], array['_fedify', 'circuit']))
  execute function wren_notify_kv_row();
create trigger kv_rows_changed_delete after delete on kv for each row
  when (old.key[1:2] in (array['wren', 'previewCard'], array['wren', 'statusCard'],
    array['wren', 'trendReview'], array['_fedify', 'circuit']))
  execute function wren_notify_kv_row();
