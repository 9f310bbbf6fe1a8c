-- Notifications held back by the recipient's notification policy (data->>'filtered'): few,
-- read by recipient and sender for the notification requests.
create index notifications_filtered on notifications (account_id, from_account_id, id)
  where (data->>'filtered') = 'true';
