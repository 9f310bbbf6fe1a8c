// What `wren import-status` shows of an import: its kind, account, counts and failed rows.

import { acctOf } from "../../domain/account.ts";
import { type ImportFailure, importCounts } from "../../domain/csv-import.ts";
import type { ServiceContext } from "../context.ts";
import { requireImport } from "./import-records.ts";

export interface ImportStatus {
  id: string;
  account: string;
  type: string;
  mode: string;
  createdAt: string;
  finishedAt: string | null;
  total: number;
  processed: number;
  failed: number;
  failures: ImportFailure[];
}

export async function importStatus(ctx: ServiceContext, id: string): Promise<ImportStatus> {
  const record = await requireImport(ctx, id);
  const account = await ctx.storage.accounts.get(record.accountId);
  return {
    id: record.id,
    account: account ? acctOf(account) : record.accountId,
    type: record.type,
    mode: record.mode,
    createdAt: record.createdAt,
    finishedAt: record.finishedAt,
    ...importCounts(record),
    failures: record.failures,
  };
}
