// The storage contract against the json-file backend, each test in a fresh temporary directory.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openJsonFileStorage } from "../json-file/index.ts";
import { runStorageContract } from "./storage-contract.ts";

runStorageContract("json-file", async () => {
  const dir = await mkdtemp(join(tmpdir(), "wren-contract-"));
  return {
    storage: await openJsonFileStorage(dir),
    reopen: () => openJsonFileStorage(dir),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
