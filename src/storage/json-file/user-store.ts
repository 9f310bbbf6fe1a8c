// Sign-in records of local accounts: `users/<account_id>.json`, indexed by lower-case email.

import { compareIds } from "../../domain/ids.ts";
import type { User } from "../../domain/user.ts";
import type { UserStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { UniqueIndex } from "./indexes.ts";
import { RecordCollection } from "./record-collection.ts";

export async function openUserStore(root: string, writer: DurableWriter): Promise<UserStore> {
  const byEmail = new UniqueIndex();
  const records = await RecordCollection.load<User>(
    root,
    {
      folder: "users",
      depth: 0,
      keyOf: (u) => u.accountId,
      fileOf: (u) => `${u.accountId}.json`,
      onChange(previous, next) {
        if (previous) byEmail.delete(previous.email.toLowerCase(), previous.accountId);
        if (next) byEmail.set(next.email.toLowerCase(), next.accountId);
      },
    },
    writer,
  );

  return {
    async get(accountId) {
      return records.get(accountId);
    },
    async getMany(accountIds) {
      return records.getMany(accountIds);
    },
    async findByEmail(email) {
      const accountId = byEmail.get(email.toLowerCase());
      return accountId === undefined ? undefined : records.get(accountId);
    },
    async put(user) {
      await records.put(user);
    },
    async remove(accountId) {
      return records.remove(accountId);
    },
    async count() {
      return records.size;
    },
    async list() {
      return [...records.values()].sort((a, b) => compareIds(a.accountId, b.accountId));
    },
  };
}
