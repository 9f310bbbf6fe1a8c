import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { environmentWith } from "./thread-environment.ts";

describe("a thread's environment", () => {
  it("is the given environment with the extra variables, which win, leaving it unchanged", () => {
    const env = { PATH: "/usr/bin", NODE_COMPILE_CACHE: "/old" };
    const made = environmentWith({ NODE_COMPILE_CACHE: "/new" }, env);
    assert.deepEqual(made, { PATH: "/usr/bin", NODE_COMPILE_CACHE: "/new" });
    assert.equal(env.NODE_COMPILE_CACHE, "/old");
  });
});
