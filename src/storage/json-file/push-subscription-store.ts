// Web Push subscriptions: `push-subscriptions/<token_id>.json`, one per access token. A user has
// a few (one per signed-in app), so each account's token ids are indexed in memory (rebuilt from
// the files at start-up) for the notifications that look them up.

import type { PushSubscription } from "../../domain/push-subscription.ts";
import type { PushSubscriptionStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { RecordCollection } from "./record-collection.ts";

export async function openPushSubscriptionStore(
  root: string,
  writer: DurableWriter,
): Promise<PushSubscriptionStore> {
  const byAccount = new Map<string, Set<string>>();
  const records = await RecordCollection.load<PushSubscription>(
    root,
    {
      folder: "push-subscriptions",
      depth: 0,
      keyOf: (s) => s.tokenId,
      fileOf: (s) => `${s.tokenId}.json`,
      onChange(previous, next) {
        if (previous) {
          const tokens = byAccount.get(previous.accountId);
          tokens?.delete(previous.tokenId);
          if (tokens?.size === 0) byAccount.delete(previous.accountId);
        }
        if (next) {
          const tokens = byAccount.get(next.accountId) ?? new Set<string>();
          tokens.add(next.tokenId);
          byAccount.set(next.accountId, tokens);
        }
      },
    },
    writer,
  );

  return {
    async get(tokenId) {
      return records.get(tokenId);
    },
    async listByAccount(accountId) {
      return [...(byAccount.get(accountId) ?? [])].flatMap((id) => records.get(id) ?? []);
    },
    async put(subscription) {
      await records.put(subscription);
    },
    async delete(tokenId) {
      return records.remove(tokenId);
    },
  };
}
