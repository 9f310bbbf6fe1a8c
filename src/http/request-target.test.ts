import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono } from "hono";
import type { HttpEnv } from "./env.ts";
import { requestTarget } from "./request-target.ts";

describe("requestTarget", () => {
  const app = new Hono<HttpEnv>();
  app.get("*", (c) => c.json(requestTarget(c)));
  const targetOf = async (url: string) => (await app.request(url)).json();

  it("splits the path from the query, both as sent", async () => {
    assert.deepEqual(await targetOf("http://h.test:8080/api/v1/tags/caf%C3%A9?limit=2&a=b"), {
      path: "/api/v1/tags/caf%C3%A9",
      query: "limit=2&a=b",
    });
  });

  it("answers an empty query when there is none, and drops a fragment", async () => {
    assert.deepEqual(await targetOf("http://h.test/"), { path: "/", query: "" });
    assert.deepEqual(await targetOf("http://h.test/p?x=1#top"), { path: "/p", query: "x=1" });
    assert.deepEqual(await targetOf("http://h.test/p#f?x=1"), { path: "/p", query: "" });
  });
});
