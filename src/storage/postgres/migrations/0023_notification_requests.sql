-- Notifications held back by the recipient's notification policy (Notification.filtered), as a
-- column so that the lists and unread counts, which leave them out, stay index-only scans.
alter table notifications add column filtered boolean not null default false;
-- listFor / countFor of the shown ones (every list and count but the requests').
create index notifications_shown on notifications (account_id, id) where not filtered;
-- The requests: the held ones by recipient and sender.
create index notifications_filtered on notifications (account_id, from_account_id, id)
  where filtered;
