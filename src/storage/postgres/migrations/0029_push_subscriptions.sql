-- Web Push subscriptions: one per access token (the key), found by account when a notification
-- is pushed. The record (endpoint, keys, alerts, policy) lives in the jsonb.
create table push_subscriptions (
  token_id bigint primary key,
  account_id bigint not null,
  data jsonb not null
);
create index push_subscriptions_account on push_subscriptions (account_id);
