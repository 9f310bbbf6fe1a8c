// Test-only fault, loaded into a `wren serve` child with `--import` (see killAfterStatusPut): on
// PostgreSQL the process SIGKILLs itself right after the first status write resolves — the row is
// committed, the listeners (the outbox that queues the Create) have not run and the client has no
// answer. The PostgreSQL twin of test/crash-suite/kill-after-rename.ts: a module hook swaps the
// status store for a wrapper (status-store-killer.ts); nothing in src/ knows of it.

import { registerHooks } from "node:module";

const STORE = "/src/storage/postgres/status-store.ts";
const wrapper = new URL("./status-store-killer.ts", import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    // The wrapper itself imports the real store.
    if (resolved.url.endsWith(STORE) && context.parentURL !== wrapper) {
      return { ...resolved, url: wrapper };
    }
    return resolved;
  },
});
