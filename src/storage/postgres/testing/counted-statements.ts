// A pool that counts the statements sent through it whose text holds `marker`: for tests that
// check how many statements gathered calls made (gathered-statements.ts).

import type { Sql } from "../connect.ts";

export function countedStatements(sql: Sql, marker: string): { sql: Sql; count(): number } {
  let sent = 0;
  const counting = new Proxy(sql, {
    apply(target, self, args: Parameters<Sql>) {
      if (String(args[0]).includes(marker)) sent++;
      return Reflect.apply(target, self, args);
    },
  });
  return { sql: counting, count: () => sent };
}
