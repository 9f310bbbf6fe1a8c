-- Trend reviews (["wren", "trendReview", …] in kv) decide what the public trends show, so their
-- writes signal a change to the other processes as the domain blocks' do (0005): kept answers of
-- those processes are dropped at once. The other kv keys still write without a signal.
drop trigger kv_changed_insert on kv;
drop trigger kv_changed_update on kv;
drop trigger kv_changed_delete on kv;
create trigger kv_changed_insert after insert on kv for each row
  when (new.key[1:2] in (array['wren', 'domainBlock'], array['wren', 'trendReview']))
  execute function wren_notify_change();
create trigger kv_changed_update after update on kv for each row
  when (new.key[1:2] in (array['wren', 'domainBlock'], array['wren', 'trendReview'])
    or old.key[1:2] in (array['wren', 'domainBlock'], array['wren', 'trendReview']))
  execute function wren_notify_change();
create trigger kv_changed_delete after delete on kv for each row
  when (old.key[1:2] in (array['wren', 'domainBlock'], array['wren', 'trendReview']))
  execute function wren_notify_change();
