// GET /api/v1/accounts/search: accounts this server already knows whose name matches. No
// WebFinger resolution yet (`resolve` is accepted and has no effect).

import type { Account } from "../../domain/account.ts";
import type { ServiceContext } from "../context.ts";

export interface SearchAccountsInput {
  query: string;
  limit: number;
  offset: number;
  /** Only accounts the viewer follows. */
  following: boolean;
  viewerId: string;
}

export async function searchAccounts(
  ctx: ServiceContext,
  input: SearchAccountsInput,
): Promise<Account[]> {
  let query = input.query.trim().replace(/^@/, "");
  // `alice@our.host` is how people write a local account; the store knows it as `alice`.
  const ownSuffix = `@${ctx.settings.domain.toLowerCase()}`;
  if (query.toLowerCase().endsWith(ownSuffix)) query = query.slice(0, -ownSuffix.length);
  if (query === "") return [];
  if (input.following) {
    // Seam for the social graph: until follows exist, a viewer follows nobody.
    return [];
  }
  return ctx.storage.accounts.search(query, {
    limit: input.limit,
    offset: input.offset,
    localOnly: false,
  });
}
