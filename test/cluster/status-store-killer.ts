// The status store as kill-after-status-put.ts hands it to the server: the real one, except that
// the first status write kills the process once PostgreSQL has committed it.

import type { StatusStore } from "../../src/storage/ports.ts";
import { createStatusStore as createRealStatusStore } from "../../src/storage/postgres/status-store.ts";

export function createStatusStore(...args: Parameters<typeof createRealStatusStore>): StatusStore {
  const store = createRealStatusStore(...args);
  return {
    ...store,
    async put(status) {
      await store.put(status);
      process.kill(process.pid, "SIGKILL");
    },
  };
}
