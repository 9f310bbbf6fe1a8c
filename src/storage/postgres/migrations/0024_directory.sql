-- The profile directory (GET /api/v1/directory): discoverable, unsuspended accounts, newest
-- first ("new") or by their newest status ("active"). The partial index holds only the accounts
-- the directory may list, so "new" walks it in order; "active" walks the authors' newest status.
create index accounts_directory on accounts (id desc)
  where (data ->> 'discoverable') = 'true' and coalesce(data ->> 'suspended', 'false') <> 'true';
create index account_status_counts_newest on account_status_counts (last_status_id desc nulls last);
