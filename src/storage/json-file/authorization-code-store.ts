// OAuth authorization codes: `authorization-codes/<codeHash>.json`, deleted when taken.

import type { AuthorizationCode } from "../../domain/oauth.ts";
import type { AuthorizationCodeStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { RecordCollection } from "./record-collection.ts";

export async function openAuthorizationCodeStore(
  root: string,
  writer: DurableWriter,
): Promise<AuthorizationCodeStore> {
  const records = await RecordCollection.load<AuthorizationCode>(
    root,
    {
      folder: "authorization-codes",
      depth: 0,
      keyOf: (c) => c.codeHash,
      fileOf: (c) => `${c.codeHash}.json`,
    },
    writer,
  );

  return {
    async put(code) {
      await records.put(code);
    },
    async take(codeHash) {
      return records.take(codeHash);
    },
  };
}
