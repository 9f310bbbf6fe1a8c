import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono } from "hono";
import { notFound } from "../../domain/errors.ts";
import type { HttpEnv } from "../env.ts";
import { apiCaching } from "./api-caching.ts";
import { handleError } from "./errors.ts";

/** An app whose public timeline counts its renderings and answers with the storage version. */
function harness(seconds = 5) {
  let now = Date.parse("2030-01-01T00:00:00Z");
  let version = 1;
  let renders = 0;
  let release: (() => void) | undefined;
  let gate: Promise<void> | undefined;
  const app = new Hono<HttpEnv>();
  app.onError(handleError);
  app.use(
    "/api/*",
    apiCaching({ seconds, clock: { now: () => new Date(now) }, version: () => version }),
  );
  app.get("/api/v1/timelines/public", async (c) => {
    renders++;
    if (gate) await gate;
    c.header("Link", `<https://x.test/p?max_id=${version}>; rel="next"`);
    return c.json({ version, renders, query: c.req.query("limit") ?? null });
  });
  app.get("/api/v1/statuses/:id", () => {
    renders++;
    throw notFound();
  });
  app.get("/api/v1/statuses/:id/context", (c) => {
    renders++;
    return c.json({ descendants: "x".repeat(200_000) });
  });
  app.get("/api/v1/markers", (c) => {
    renders++;
    return c.json({});
  });
  app.get("/api/v1/instance", (c) => {
    renders++;
    return c.json({ ok: true });
  });
  return {
    app,
    get renders() {
      return renders;
    },
    advance(ms: number) {
      now += ms;
    },
    write() {
      version++;
    },
    hold() {
      gate = new Promise((resolve) => {
        release = () => {
          gate = undefined;
          resolve();
        };
      });
    },
    release: () => release?.(),
  };
}

const PUBLIC = "public, max-age=15, stale-while-revalidate=30, stale-if-error=86400";

describe("API caching", () => {
  it("renders an anonymous public read once until the storage changes", async () => {
    const h = harness();
    const first = await h.app.request("/api/v1/timelines/public");
    const second = await h.app.request("/api/v1/timelines/public");
    assert.deepEqual(await second.json(), await first.json());
    assert.equal(h.renders, 1);
    assert.equal(second.headers.get("cache-control"), PUBLIC);
    assert.equal(second.headers.get("vary"), "Authorization");
    assert.equal(second.headers.get("content-type"), "application/json");
    assert.match(second.headers.get("link") ?? "", /max_id=1/);

    h.write();
    const third = await h.app.request("/api/v1/timelines/public");
    assert.deepEqual(await third.json(), { version: 2, renders: 2, query: null });
    assert.match(third.headers.get("link") ?? "", /max_id=2/);
  });

  it("renders again once the kept time has passed, and keeps each query apart", async () => {
    const h = harness(5);
    await h.app.request("/api/v1/timelines/public");
    h.advance(4_000);
    await h.app.request("/api/v1/timelines/public");
    assert.equal(h.renders, 1);
    h.advance(1_001);
    await h.app.request("/api/v1/timelines/public");
    assert.equal(h.renders, 2);
    const limited = await h.app.request("/api/v1/timelines/public?limit=2");
    assert.equal(((await limited.json()) as { query: string }).query, "2");
    assert.equal(h.renders, 3);
  });

  it("never serves or keeps a signed-in request's answer", async () => {
    const h = harness();
    const auth = { headers: { authorization: "Bearer abc" } };
    const signedIn = await h.app.request("/api/v1/timelines/public", auth);
    assert.equal(signedIn.headers.get("cache-control"), "private, no-store");
    assert.equal(signedIn.headers.get("vary"), "Authorization");
    await h.app.request("/api/v1/timelines/public");
    await h.app.request("/api/v1/timelines/public", auth);
    assert.equal(h.renders, 3);
  });

  it("keeps no error, and marks other endpoints private", async () => {
    const h = harness();
    for (let i = 0; i < 2; i++) {
      const missing = await h.app.request("/api/v1/statuses/1");
      assert.equal(missing.status, 404);
      assert.equal(missing.headers.get("cache-control"), "private, no-store");
    }
    const markers = await h.app.request("/api/v1/markers");
    assert.equal(markers.headers.get("cache-control"), "private, no-store");
    await h.app.request("/api/v1/markers");
    assert.equal(h.renders, 4);
  });

  it("announces and keeps the server's description for every caller, signed in or not", async () => {
    const h = harness();
    const auth = { headers: { authorization: "Bearer abc" } };
    const signedIn = await h.app.request("/api/v1/instance", auth);
    assert.equal(
      signedIn.headers.get("cache-control"),
      "public, max-age=300, stale-while-revalidate=30, stale-if-error=86400",
    );
    const anonymous = await h.app.request("/api/v1/instance");
    assert.equal(anonymous.headers.get("cache-control"), signedIn.headers.get("cache-control"));
    assert.equal(h.renders, 1);
    h.write();
    await h.app.request("/api/v1/instance", auth);
    assert.equal(h.renders, 2);
  });

  it("renders a very large answer each time, still announced public", async () => {
    const h = harness();
    for (let i = 0; i < 2; i++) {
      const res = await h.app.request("/api/v1/statuses/1/context");
      assert.equal(res.headers.get("cache-control"), PUBLIC);
      assert.equal(((await res.json()) as { descendants: string }).descendants.length, 200_000);
    }
    assert.equal(h.renders, 2);
  });

  it("lets concurrent misses of one page share a single rendering", async () => {
    const h = harness();
    h.hold();
    const answers = Array.from({ length: 5 }, () => h.app.request("/api/v1/timelines/public"));
    await new Promise((resolve) => setImmediate(resolve));
    h.release();
    const bodies = await Promise.all((await Promise.all(answers)).map((r) => r.json()));
    assert.equal(h.renders, 1);
    for (const body of bodies) assert.deepEqual(body, bodies[0]);
  });

  it("keeps nothing when the time is 0, yet announces the public answer", async () => {
    const h = harness(0);
    const res = await h.app.request("/api/v1/timelines/public");
    await h.app.request("/api/v1/timelines/public");
    assert.equal(h.renders, 2);
    assert.equal(res.headers.get("cache-control"), PUBLIC);
  });
});
