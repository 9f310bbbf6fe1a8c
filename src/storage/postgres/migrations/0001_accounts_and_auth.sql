-- Accounts and sign-in: accounts, users, OAuth apps, access tokens, authorization codes and
-- remembered Idempotency-Keys. Each row keeps the whole record in `data` (read back as is) and
-- the columns its lookups need. Case-insensitive keys (`*_key`) are lower-cased by Wren
-- (JavaScript's toLowerCase, as the json-file backend does), so matching does not depend on the
-- database's locale; they and the hashes use the "C" collation: byte comparison, plain ordering.

-- Trigram indexes answer account search's substring matches (LIKE '%q%').
create extension if not exists pg_trgm;

create table accounts (
  id bigint primary key,
  username_key text collate "C" not null,
  -- '' for local accounts, which no remote host has.
  domain_key text collate "C" not null,
  -- `username@domain` (the username alone for local accounts) and the display name, for search.
  acct_key text not null,
  display_name_key text not null,
  uri text collate "C" not null,
  data jsonb not null
);
-- findByUsername; domains() and countLocal() read its leading column.
create index accounts_acct on accounts (domain_key, username_key);
create index accounts_uri on accounts (uri);
create index accounts_acct_trgm on accounts using gin (acct_key gin_trgm_ops);
create index accounts_display_name_trgm on accounts using gin (display_name_key gin_trgm_ops);
create trigger accounts_changed after insert or update or delete or truncate on accounts
  for each statement execute function wren_notify_change();

create table users (
  account_id bigint primary key,
  email_key text collate "C" not null,
  data jsonb not null
);
create index users_email on users (email_key);
create trigger users_changed after insert or update or delete or truncate on users
  for each statement execute function wren_notify_change();

create table oauth_apps (
  id bigint primary key,
  client_id text collate "C" not null,
  data jsonb not null
);
create index oauth_apps_client_id on oauth_apps (client_id);
create trigger oauth_apps_changed after insert or update or delete or truncate on oauth_apps
  for each statement execute function wren_notify_change();

create table access_tokens (
  id bigint primary key,
  token_hash text collate "C" not null,
  refresh_token_hash text collate "C",
  -- null for client_credentials tokens, which act for the app only.
  account_id bigint,
  data jsonb not null
);
create index access_tokens_token_hash on access_tokens (token_hash);
create index access_tokens_refresh_token_hash on access_tokens (refresh_token_hash)
  where refresh_token_hash is not null;
create index access_tokens_account on access_tokens (account_id, id) where account_id is not null;
create trigger access_tokens_changed after insert or update or delete or truncate on access_tokens
  for each statement execute function wren_notify_change();

-- Taken (deleted) when exchanged: DELETE … RETURNING gives a code to one taker only.
create table authorization_codes (
  code_hash text collate "C" primary key,
  data jsonb not null
);
create trigger authorization_codes_changed
  after insert or update or delete or truncate on authorization_codes
  for each statement execute function wren_notify_change();

create table idempotency_keys (
  key_hash text collate "C" primary key,
  -- createdAt in milliseconds since the epoch; null when unreadable (never pruned, as in json-file).
  created_ms bigint,
  data jsonb not null
);
create index idempotency_keys_created on idempotency_keys (created_ms);
create trigger idempotency_keys_changed
  after insert or update or delete or truncate on idempotency_keys
  for each statement execute function wren_notify_change();
