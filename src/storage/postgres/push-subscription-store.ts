// Web Push subscriptions: table `push_subscriptions` (migration 0029), one row per access token,
// found by token or by account.

import type { PushSubscription } from "../../domain/push-subscription.ts";
import type { PushSubscriptionStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { firstData, isRowId } from "./rows.ts";

type Row = { data: PushSubscription };

export function createPushSubscriptionStore(db: PgContext): PushSubscriptionStore {
  const { sql } = db;
  return {
    async get(tokenId) {
      if (!isRowId(tokenId)) return undefined;
      return firstData(
        await sql<Row[]>`select data from push_subscriptions where token_id = ${tokenId}`,
      );
    },
    async listByAccount(accountId) {
      if (!isRowId(accountId)) return [];
      const rows = await sql<Row[]>`
        select data from push_subscriptions where account_id = ${accountId}`;
      return rows.map((row) => row.data);
    },
    async put(subscription) {
      await sql`
        insert into push_subscriptions (token_id, account_id, data)
        values (${subscription.tokenId}, ${subscription.accountId}, ${jsonb(sql, subscription)})
        on conflict (token_id) do update
          set account_id = excluded.account_id, data = excluded.data`;
    },
    async delete(tokenId) {
      if (!isRowId(tokenId)) return false;
      const result = await sql`delete from push_subscriptions where token_id = ${tokenId}`;
      return result.count > 0;
    },
  };
}
