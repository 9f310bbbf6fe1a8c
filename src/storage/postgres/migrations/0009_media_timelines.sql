-- "Only media" pages (public timelines and an account's statuses): their own partial indexes,
-- which hold only statuses with media. Filtered on the general indexes, such a page read every
-- status newer than its 20th match: on an instance where few statuses carry media, the whole
-- public timeline (seconds at 10M statuses; docs/PERFORMANCE.md, PostgreSQL).
create index statuses_public_media on statuses (id) where public_timeline and has_media;
create index statuses_public_origin_media on statuses (local, id)
  where public_timeline and has_media;
create index statuses_account_media on statuses (account_id, id) where has_media and not deleted;
