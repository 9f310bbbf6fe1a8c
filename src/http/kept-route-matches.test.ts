import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono } from "hono";
import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";
import type { HttpEnv } from "./env.ts";
import { KeptRouteMatches } from "./kept-route-matches.ts";

/** A trie router that counts the matches it works out. */
function countingTrie<T>(): Router<T> & { matched: number } {
  const trie = new TrieRouter<T>();
  return {
    name: "counting trie",
    matched: 0,
    add: (method, path, handler) => trie.add(method, path, handler),
    match(method, path): Result<T> {
      this.matched++;
      return trie.match(method, path);
    },
  };
}

function routedApp(router: Router<never>) {
  const app = new Hono<HttpEnv>({ strict: false, router: router as never });
  app.use("/api/*", async (c, next) => {
    await next();
    c.res.headers.set("x-mw", "api");
  });
  app.get("/api/statuses/:id{[0-9]+}", (c) => c.json({ route: "status", id: c.req.param("id") }));
  app.get("/api/statuses/:id{[0-9]+}/context", (c) =>
    c.json({ route: "context", ...c.req.param() }),
  );
  app.get("/api/statuses/lookup", (c) => c.json({ route: "lookup" }));
  app.post("/api/statuses/:id{[0-9]+}", (c) => c.json({ route: "post", id: c.req.param("id") }));
  app.get("/:handle{@[^/]+}", (c) => c.json({ route: "profile", handle: c.req.param("handle") }));
  return app;
}

describe("KeptRouteMatches", () => {
  const paths: [string, string][] = [
    ["GET", "/api/statuses/12"],
    ["GET", "/api/statuses/34"],
    ["GET", "/api/statuses/12/context"],
    ["GET", "/api/statuses/12/"],
    ["GET", "/api/statuses/lookup"],
    ["POST", "/api/statuses/12"],
    ["HEAD", "/api/statuses/12"],
    ["GET", "/@alice%20b"],
    ["GET", "/nowhere"],
    ["DELETE", "/api/statuses/12"],
  ];

  it("answers every request as the router it keeps matches of, asked again and again", async () => {
    const plain = routedApp(new TrieRouter());
    const kept = routedApp(new KeptRouteMatches(new TrieRouter()));
    for (let round = 0; round < 3; round++) {
      for (const [method, path] of paths) {
        const [a, b] = await Promise.all([
          plain.request(path, { method }),
          kept.request(path, { method }),
        ]);
        assert.equal(b.status, a.status, `${method} ${path}`);
        assert.deepEqual([...b.headers], [...a.headers], `${method} ${path}`);
        assert.equal(await b.text(), await a.text(), `${method} ${path}`);
      }
    }
  });

  it("works a path's match out once, and each parameter value of a kept match stays its own", async () => {
    const counting = countingTrie<never>();
    const app = routedApp(new KeptRouteMatches(counting));
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(await (await app.request("/api/statuses/7")).json(), {
        route: "status",
        id: "7",
      });
      assert.deepEqual(await (await app.request("/api/statuses/8")).json(), {
        route: "status",
        id: "8",
      });
    }
    assert.equal(counting.matched, 2);
  });

  it("matches a very long path every time instead of keeping it", async () => {
    const counting = countingTrie<never>();
    const app = routedApp(new KeptRouteMatches(counting));
    const long = `/@${"a".repeat(300)}`;
    for (let i = 0; i < 3; i++) assert.equal((await app.request(long)).status, 200);
    assert.equal(counting.matched, 3);
  });

  it("refuses a route added after the first match, which kept matches would not know", async () => {
    const router = new KeptRouteMatches<string>(new TrieRouter());
    router.add("GET", "/a", "a");
    router.match("GET", "/a");
    assert.throws(() => router.add("GET", "/b", "b"), /after the first match/);
  });
});
