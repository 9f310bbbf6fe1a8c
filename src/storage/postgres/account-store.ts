// Accounts, local and remote: table `accounts` (migration 0001), found by id, by
// case-insensitive `username@domain`, by ActivityPub uri, and searched through trigram indexes.

import type { Account } from "../../domain/account.ts";
import { acctOf } from "../../domain/account.ts";
import type { AccountStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { idWindow } from "./id-window.ts";
import { jsonb } from "./jsonb.ts";
import { createRecordMemo } from "./record-memo.ts";
import { byId, firstData, isRowId, rowIds } from "./rows.ts";

type Row = { data: Account };

/** Local accounts have the empty domain, which no remote host has (as in json-file). */
const domainKey = (domain: string | null) => (domain ?? "").toLowerCase();

/** LIKE's wildcards and its escape character, taken literally. */
const likeContaining = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

export function createAccountStore(db: PgContext): AccountStore {
  const { sql } = db;
  // Every page of statuses reads its authors; accounts change rarely (record-memo.ts).
  const memo = createRecordMemo<Account>(db.changes, "accounts");
  // By uri too, emptied alike: every inbox activity reads its sender by uri (ADR 0063).
  const byUri = createRecordMemo<Account>(db.changes, "accounts");
  return {
    async get(id) {
      if (!isRowId(id)) return undefined;
      return memo.get(id, async () =>
        firstData(await sql<Row[]>`select data from accounts where id = ${id}`),
      );
    },
    async getMany(ids) {
      const wanted = rowIds(ids);
      if (wanted.length === 0) return new Map();
      return memo.getMany(wanted, async (missing) =>
        byId(await sql<Row[]>`select data from accounts where id = any(${missing}::bigint[])`),
      );
    },
    async findByUsername(username, domain) {
      // Several records could hold one name (json-file keeps the last written); the newest wins.
      return firstData(
        await sql<Row[]>`
          select data from accounts
          where domain_key = ${domainKey(domain)} and username_key = ${username.toLowerCase()}
          order by id desc limit 1`,
      );
    },
    async findByUri(uri) {
      return byUri.get(uri, async () =>
        firstData(
          await sql<Row[]>`select data from accounts where uri = ${uri} order by id desc limit 1`,
        ),
      );
    },
    async search(query, { limit, offset, localOnly }) {
      if (limit <= 0) return [];
      const q = query.toLowerCase();
      const pattern = likeContaining(q);
      // An exact username (or username@domain) match contains the query too, so one filter
      // finds both kinds; exact ones sort first.
      const rows = await sql<Row[]>`
        select data from accounts
        where (acct_key like ${pattern} or display_name_key like ${pattern})
          ${localOnly ? sql`and domain_key = ''` : sql``}
        order by (username_key = ${q} or acct_key = ${q}) desc, id
        limit ${limit} offset ${Math.max(0, offset)}`;
      return rows.map((row) => row.data);
    },
    async put(account) {
      await sql`
        insert into accounts
          (id, username_key, domain_key, acct_key, display_name_key, uri, data)
        values (
          ${account.id}, ${account.username.toLowerCase()}, ${domainKey(account.domain)},
          ${acctOf(account).toLowerCase()}, ${account.displayName.toLowerCase()}, ${account.uri},
          ${jsonb(sql, account)}
        )
        on conflict (id) do update set
          username_key = excluded.username_key,
          domain_key = excluded.domain_key,
          acct_key = excluded.acct_key,
          display_name_key = excluded.display_name_key,
          uri = excluded.uri,
          data = excluded.data`;
      db.changes.bump("accounts");
    },
    async remove(id) {
      if (!isRowId(id)) return false;
      const rows = await sql`delete from accounts where id = ${id} returning 1`;
      if (rows.length === 0) return false;
      db.changes.bump("accounts");
      return true;
    },
    async countLocal() {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from accounts where domain_key = ''`;
      return row?.n ?? 0;
    },
    async directory({ order, localOnly, offset, limit, excludeIds, excludeDomains }) {
      if (limit <= 0) return [];
      const rows = await sql<Row[]>`
        select a.data from accounts a
        left join account_status_counts c on c.account_id = a.id
        where (a.data ->> 'discoverable') = 'true'
          and coalesce(a.data ->> 'suspended', 'false') <> 'true'
          ${localOnly ? sql`and a.domain_key = ''` : sql``}
          and a.id <> all(${rowIds(excludeIds)}::bigint[])
          and a.domain_key <> all(${excludeDomains as string[]}::text[])
        order by ${order === "active" ? sql`c.last_status_id desc nulls last,` : sql``} a.id desc
        limit ${limit} offset ${Math.max(0, offset)}`;
      return rows.map((row) => row.data);
    },
    async list({ origin, domain }, page) {
      const window = idWindow(sql, page);
      if (!window) return [];
      const where =
        domain !== undefined
          ? origin === "local"
            ? sql`and false`
            : sql`and domain_key = ${domain.toLowerCase()}`
          : origin === "local"
            ? sql`and domain_key = ''`
            : origin === "remote"
              ? sql`and domain_key <> ''`
              : sql``;
      const rows = await sql<Row[]>`
        select data from accounts where true ${window.where} ${where}
        order by id ${window.direction} limit ${window.limit}`;
      const accounts = rows.map((row) => row.data);
      // min_id walks up from its bound; the answer is newest first either way.
      return page.minId !== undefined ? accounts.reverse() : accounts;
    },
    async domains() {
      const rows = await sql<{ domain: string }[]>`
        select distinct domain_key as domain from accounts where domain_key <> ''
        order by domain_key`;
      return rows.map((row) => row.domain);
    },
  };
}
