// Access tokens: `tokens/<id>.json`, indexed by token hash, refresh token hash and account.

import { compareIds } from "../../domain/ids.ts";
import type { AccessToken } from "../../domain/oauth.ts";
import type { TokenStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { GroupIndex, UniqueIndex } from "./indexes.ts";
import { RecordCollection } from "./record-collection.ts";

export async function openTokenStore(root: string, writer: DurableWriter): Promise<TokenStore> {
  const byHash = new UniqueIndex();
  const byRefreshHash = new UniqueIndex();
  const byAccount = new GroupIndex();
  const records = await RecordCollection.load<AccessToken>(
    root,
    {
      folder: "tokens",
      depth: 0,
      keyOf: (t) => t.id,
      fileOf: (t) => `${t.id}.json`,
      onChange(previous, next) {
        if (previous) {
          byHash.delete(previous.tokenHash, previous.id);
          if (previous.refreshTokenHash !== null) {
            byRefreshHash.delete(previous.refreshTokenHash, previous.id);
          }
          if (previous.accountId !== null) byAccount.delete(previous.accountId, previous.id);
        }
        if (next) {
          byHash.set(next.tokenHash, next.id);
          if (next.refreshTokenHash !== null) byRefreshHash.set(next.refreshTokenHash, next.id);
          if (next.accountId !== null) byAccount.add(next.accountId, next.id);
        }
      },
    },
    writer,
  );

  const getById = (id: string | undefined) => (id === undefined ? undefined : records.get(id));

  return {
    async get(id) {
      return records.get(id);
    },
    async findByTokenHash(hash) {
      return getById(byHash.get(hash));
    },
    async findByRefreshTokenHash(hash) {
      return getById(byRefreshHash.get(hash));
    },
    async put(token) {
      await records.put(token);
    },
    async listByAccount(accountId) {
      return [...byAccount.get(accountId)].sort(compareIds).flatMap((id) => records.get(id) ?? []);
    },
  };
}
