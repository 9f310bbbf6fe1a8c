// Committed transactions of one database so far (pg_stat_database's xact_commit): each statement
// Wren sends outside a transaction is one, so their count per request is the statements a
// request costs, steady where requests/s and CPU move with a shared machine's load.

import postgres from "postgres";

export interface CommitCounter {
  /** The count now, once the backends' statistics have been flushed (they wait up to a second). */
  commits(): Promise<number>;
  close(): Promise<void>;
}

export function commitCounter(databaseUrl: string): CommitCounter {
  const stats = postgres(databaseUrl.replace(/\/[^/]+$/, "/postgres"), { max: 1 });
  const name = new URL(databaseUrl).pathname.slice(1);
  return {
    async commits() {
      await new Promise((r) => setTimeout(r, 1500));
      await stats`select pg_stat_clear_snapshot()`;
      const [row] = await stats<{ n: string }[]>`
        select xact_commit as n from pg_stat_database where datname = ${name}`;
      return Number(row?.n ?? 0);
    },
    close: () => stats.end(),
  };
}
