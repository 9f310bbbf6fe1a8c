// GET /api/v2/search, as Mastodon's SearchService: accounts, statuses and hashtags matching a
// query, or the one account or status a URL names. Which kinds are searched depends on the
// query as in Mastodon: `#…` searches no accounts, anything with `@` no hashtags, and a single
// `#tag` or `@handle` word no statuses. Statuses need a signed-in viewer; `offset` applies only
// with a `type`.

import type { Account } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import { searchAccounts } from "../accounts/search-accounts.ts";
import type { ServiceContext } from "../context.ts";
import { visibleStatuses } from "../statuses/visibility.ts";
import { resolveUrl } from "./resolve-url.ts";
import { searchHashtags } from "./search-hashtags.ts";
import { searchStatuses } from "./search-statuses.ts";

export type SearchType = "accounts" | "hashtags" | "statuses";

export interface SearchInput {
  query: string;
  type?: SearchType | undefined;
  /** Look unknown `user@host` handles and URLs up on other servers (signed-in viewers only). */
  resolve: boolean;
  /** Only accounts the viewer follows. */
  following: boolean;
  /** Only statuses by this account. */
  accountId?: string | undefined;
  maxId?: string | undefined;
  minId?: string | undefined;
  limit: number;
  offset: number;
  viewerId: string | null;
  /** Hashtags nobody reviewed are left out, but an exact match. */
  excludeUnreviewed?: boolean | undefined;
}

export interface SearchResults {
  accounts: Account[];
  statuses: Status[];
  /** Tag names (normalised). */
  hashtags: string[];
}

const isUrl = (query: string) => /^https?:\/\//i.test(query);

export async function search(ctx: ServiceContext, input: SearchInput): Promise<SearchResults> {
  const results: SearchResults = { accounts: [], statuses: [], hashtags: [] };
  const query = input.query.trim();
  if (query === "" || input.limit <= 0) return results;
  const viewerId = input.viewerId;
  const resolve = input.resolve && viewerId !== null;
  const offset = input.type ? input.offset : 0;
  const wants = (type: SearchType) => input.type === undefined || input.type === type;

  if (isUrl(query)) {
    const only =
      input.type === "accounts" ? "account" : input.type === "statuses" ? "status" : undefined;
    const resource =
      offset === 0 && input.type !== "hashtags"
        ? await resolveUrl(ctx, query, { resolve, only })
        : undefined;
    if (resource?.kind === "account") results.accounts.push(resource.account);
    if (resource?.kind === "status") {
      results.statuses.push(...(await visibleStatuses(ctx, viewerId, [resource.status])));
    }
    // With resolve, a URL means that one resource (Mastodon); otherwise it is searched as text.
    if (resource || resolve) return results;
  }

  const startsWithHash = query.startsWith("#");
  const hasAt = query.includes("@");
  const hasSpace = /\s/.test(query);
  const [accounts, statuses, hashtags] = await Promise.all([
    wants("accounts") && !startsWithHash && !(hasAt && hasSpace)
      ? searchAccounts(ctx, {
          query,
          limit: input.limit,
          offset,
          following: input.following,
          viewerId,
          resolve,
        })
      : [],
    wants("statuses") && viewerId !== null && !((startsWithHash || hasAt) && !hasSpace)
      ? searchStatuses(ctx, {
          query,
          viewerId,
          accountId: input.accountId,
          maxId: input.maxId,
          minId: input.minId,
          limit: input.limit,
          offset,
        })
      : [],
    wants("hashtags") && !hasAt
      ? searchHashtags(ctx, {
          query,
          limit: input.limit,
          offset,
          excludeUnreviewed: input.excludeUnreviewed,
        })
      : [],
  ]);
  return { accounts, statuses, hashtags };
}
