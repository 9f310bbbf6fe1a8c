-- A job's record is stored as json, not jsonb, and compressed with lz4 where the server has it
-- (ADR 0064). The queue never looks inside a record but for its due time's text and a held
-- delivery's release (job-store.ts), and reads each whole record back once (the claim): jsonb
-- parsed every record into its binary form on the way in and printed it back on the way out, and
-- a fan-out's delivery job is some 9 kB (Fedify's message: the signed activity and the sender's
-- keys), 1,000 of them a status. json keeps the text as sent (validated, not converted); lz4 (PG
-- 14 and later, when built with it) compresses that text for TOAST at a fraction of pglz's CPU.
alter table jobs alter column data type json using data::json;
do $$
begin
  if current_setting('server_version_num')::int >= 140000 then
    execute 'alter table jobs alter column data set compression lz4';
  end if;
exception when feature_not_supported then
  null; -- a server built without lz4 keeps pglz
end;
$$;

-- The previous version's release of held deliveries (advanceGroup) calls jsonb_set on the column
-- itself: while its processes run beside the new ones (a rolling upgrade), this takes json and
-- answers jsonb, which the column takes back by assignment. The new version casts (data::jsonb)
-- and so calls PostgreSQL's own.
create function jsonb_set(target json, path text[], replacement jsonb) returns jsonb
  language sql immutable strict parallel safe
  as $$ select pg_catalog.jsonb_set(target::jsonb, path, replacement) $$;
