-- IP blocks (["wren", "ipBlock", …] in kv) are checked on every request against a list each
-- process keeps until the key–value store's version moves (KvStore.version,
-- services/address-blocks/ip-blocks.ts). Kept until any write at all moved Storage.version(),
-- the list followed another process's change (`wren ip-block add`) at its next post; kept by the
-- key–value store's version, it needs their writes to signal, as the domain blocks' and trend
-- reviews' do (0005, 0034). The other kv keys still write without a signal.
drop trigger kv_changed_insert on kv;
drop trigger kv_changed_update on kv;
drop trigger kv_changed_delete on kv;
create trigger kv_changed_insert after insert on kv for each row
  when (new.key[1:2] in (array['wren', 'domainBlock'], array['wren', 'trendReview'],
    array['wren', 'ipBlock']))
  execute function wren_notify_change();
create trigger kv_changed_update after update on kv for each row
  when (new.key[1:2] in (array['wren', 'domainBlock'], array['wren', 'trendReview'],
      array['wren', 'ipBlock'])
    or old.key[1:2] in (array['wren', 'domainBlock'], array['wren', 'trendReview'],
      array['wren', 'ipBlock']))
  execute function wren_notify_change();
create trigger kv_changed_delete after delete on kv for each row
  when (old.key[1:2] in (array['wren', 'domainBlock'], array['wren', 'trendReview'],
    array['wren', 'ipBlock']))
  execute function wren_notify_change();
