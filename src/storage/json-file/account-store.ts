// Accounts, local and remote: `accounts/<account_id>.json`, indexed in memory by id, by
// case-insensitive `username@domain` and by ActivityPub uri.

import type { Account } from "../../domain/account.ts";
import { acctOf } from "../../domain/account.ts";
import { compareIds } from "../../domain/ids.ts";
import type { AccountStore, IdPage } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { CountIndex, UniqueIndex } from "./indexes.ts";
import { RecordCollection } from "./record-collection.ts";
import { SortedIds } from "./sorted-ids.ts";

/** Two windows of one IdPage, newest first, as one window of their union. */
function mergeNewestFirst(a: string[], b: string[], page: IdPage): string[] {
  const all = [...a, ...b].sort((x, y) => compareIds(y, x));
  // min_id windows are the oldest ids above the bound; the others the newest below.
  return page.minId !== undefined ? all.slice(-page.limit) : all.slice(0, page.limit);
}

/** Local accounts have an empty domain part, which no remote host has. */
function acctKey(username: string, domain: string | null): string {
  return `${username.toLowerCase()}@${(domain ?? "").toLowerCase()}`;
}

const byId = (a: Account, b: Account) => compareIds(a.id, b.id);

/** When each account's newest status was created (ISO), from the status store. */
export type LastStatusTimes = (ids: readonly string[]) => Promise<Map<string, string | null>>;

export async function openAccountStore(
  root: string,
  writer: DurableWriter,
  lastStatusTimes: LastStatusTimes,
): Promise<AccountStore> {
  const byAcct = new UniqueIndex();
  const byUri = new UniqueIndex();
  const remoteDomains = new CountIndex();
  let localCount = 0;
  // Ids for the admin list, by origin and by remote domain (lower case).
  const localIds = new SortedIds();
  const remoteIds = new SortedIds();
  const domainIds = new Map<string, SortedIds>();
  const idsOf = (domain: string) => {
    let ids = domainIds.get(domain);
    if (!ids) {
      ids = new SortedIds();
      domainIds.set(domain, ids);
    }
    return ids;
  };

  const records = await RecordCollection.load<Account>(
    root,
    {
      folder: "accounts",
      depth: 0,
      keyOf: (a) => a.id,
      fileOf: (a) => `${a.id}.json`,
      onChange(previous, next) {
        if (previous) {
          byAcct.delete(acctKey(previous.username, previous.domain), previous.id);
          byUri.delete(previous.uri, previous.id);
          if (previous.domain === null) {
            localCount--;
            localIds.delete(previous.id);
          } else {
            remoteDomains.delete(previous.domain.toLowerCase());
            remoteIds.delete(previous.id);
            idsOf(previous.domain.toLowerCase()).delete(previous.id);
          }
        }
        if (next) {
          byAcct.set(acctKey(next.username, next.domain), next.id);
          byUri.set(next.uri, next.id);
          if (next.domain === null) {
            localCount++;
            localIds.add(next.id);
          } else {
            remoteDomains.add(next.domain.toLowerCase());
            remoteIds.add(next.id);
            idsOf(next.domain.toLowerCase()).add(next.id);
          }
        }
      },
    },
    writer,
  );

  const getByKey = (id: string | undefined) => (id === undefined ? undefined : records.get(id));

  return {
    async get(id) {
      return records.get(id);
    },
    async getMany(ids) {
      return records.getMany(ids);
    },
    async findByUsername(username, domain) {
      return getByKey(byAcct.get(acctKey(username, domain)));
    },
    async findByUri(uri) {
      return getByKey(byUri.get(uri));
    },
    async remove(id) {
      return records.remove(id);
    },
    async search(query, { limit, offset, localOnly }) {
      // A full scan: fine for the instance sizes this backend is for (the postgres backend
      // has real text indexes).
      const q = query.toLowerCase();
      const exact: Account[] = [];
      const partial: Account[] = [];
      for (const account of records.values()) {
        if (localOnly && account.domain !== null) continue;
        const acct = acctOf(account).toLowerCase();
        if (account.username.toLowerCase() === q || acct === q) exact.push(account);
        else if (acct.includes(q) || account.displayName.toLowerCase().includes(q)) {
          partial.push(account);
        }
      }
      return [...exact.sort(byId), ...partial.sort(byId)].slice(offset, offset + limit);
    },
    async put(account) {
      await records.put(account);
    },
    async countLocal() {
      return localCount;
    },
    async directory({ order, localOnly, offset, limit, excludeIds, excludeDomains }) {
      // A full scan, as search is: fine for the instance sizes this backend is for.
      const excluded = new Set(excludeIds);
      const blockedDomains = new Set(excludeDomains);
      const listed: Account[] = [];
      for (const account of records.values()) {
        if (!account.discoverable || account.suspended) continue;
        if (localOnly && account.domain !== null) continue;
        if (excluded.has(account.id)) continue;
        if (account.domain !== null && blockedDomains.has(account.domain.toLowerCase())) continue;
        listed.push(account);
      }
      const newestFirst = (a: Account, b: Account) => compareIds(b.id, a.id);
      if (order === "new") return listed.sort(newestFirst).slice(offset, offset + limit);
      const times = await lastStatusTimes(listed.map((a) => a.id));
      const timeOf = (a: Account) => times.get(a.id) ?? "";
      // ISO times of one format compare as text; "" (no status) sorts last.
      listed.sort((a, b) => {
        const ta = timeOf(a);
        const tb = timeOf(b);
        return ta === tb ? newestFirst(a, b) : ta < tb ? 1 : -1;
      });
      return listed.slice(offset, offset + limit);
    },
    async domains() {
      return remoteDomains.keys().sort();
    },
    async list({ origin, domain }, page) {
      let ids: string[];
      if (domain !== undefined) {
        ids = origin === "local" ? [] : (domainIds.get(domain.toLowerCase())?.page(page) ?? []);
      } else if (origin === "local") ids = localIds.page(page);
      else if (origin === "remote") ids = remoteIds.page(page);
      else ids = mergeNewestFirst(localIds.page(page), remoteIds.page(page), page);
      return ids.flatMap((id) => records.get(id) ?? []);
    },
  };
}
