import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Context, Hono } from "hono";
import { notFound } from "../../domain/errors.ts";
import type { HttpEnv, Viewer } from "../env.ts";
import { apiCaching } from "./api-caching.ts";
import { handleError } from "./errors.ts";

/** Bearer tokens the harness knows: each its own token id, two of them one account's. */
const HOLDERS: Record<string, { token: string; account: string }> = {
  "Bearer one": { token: "t1", account: "a1" },
  "Bearer two": { token: "t2", account: "a2" },
  "Bearer one-again": { token: "t3", account: "a1" },
};

function viewerOf(authorization: string | undefined): Viewer | null {
  const holder = authorization === undefined ? undefined : HOLDERS[authorization];
  if (!holder) return null;
  return { token: { id: holder.token }, account: { id: holder.account } } as unknown as Viewer;
}

/**
 * An app whose public and home timelines count their renderings and answer with the storage
 * version (and the viewer's account). Signed-in answers are kept `viewerSeconds` when given.
 */
function harness(seconds = 5, viewerSeconds?: number) {
  let now = Date.parse("2030-01-01T00:00:00Z");
  let version = 1;
  let renders = 0;
  let release: (() => void) | undefined;
  let gate: Promise<void> | undefined;
  /** The version a request's token lookup began at; undefined: the current one. */
  let lookedUpAt: number | undefined;
  let lapse = Number.POSITIVE_INFINITY;
  const app = new Hono<HttpEnv>();
  app.onError(handleError);
  app.use(
    "/api/*",
    apiCaching({
      seconds,
      clock: { now: () => new Date(now) },
      version: () => version,
      ...(viewerSeconds !== undefined && {
        viewers: {
          seconds: viewerSeconds,
          bytes: 1024 * 1024,
          caller: (c) => viewerOf(c.req.header("authorization")),
          callerVersion: () => lookedUpAt ?? version,
          lapse: () => lapse,
        },
      }),
    }),
  );
  const page = async (c: Context<HttpEnv>) => {
    renders++;
    if (gate) await gate;
    c.header("Link", `<https://x.test/p?max_id=${version}>; rel="next"`);
    const viewer = viewerOf(c.req.header("authorization"))?.account?.id ?? null;
    return c.json({ version, renders, query: c.req.query("limit") ?? null, viewer });
  };
  app.get("/api/v1/timelines/public", page);
  app.get("/api/v1/timelines/home", page);
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
    /** The next token lookups began at `at` (a write landed between them and the caching). */
    lookUpAt(at: number | undefined) {
      lookedUpAt = at;
    },
    lapseAt(at: number) {
      lapse = at;
    },
    get now() {
      return now;
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
    assert.deepEqual(await third.json(), { version: 2, renders: 2, query: null, viewer: null });
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

  describe("signed-in answers", () => {
    const as = (token: string, more: Record<string, string> = {}) => ({
      headers: { authorization: `Bearer ${token}`, ...more },
    });

    it("renders once per token until the storage changes, still private", async () => {
      const h = harness(5, 5);
      const first = await h.app.request("/api/v1/timelines/home", as("one"));
      const second = await h.app.request("/api/v1/timelines/home", as("one"));
      assert.equal(h.renders, 1);
      assert.equal(await second.text(), await first.text());
      assert.equal(second.headers.get("cache-control"), "private, no-store");
      assert.equal(second.headers.get("vary"), "Authorization");
      assert.equal(second.headers.get("content-type"), "application/json");
      assert.equal(second.headers.get("link"), first.headers.get("link"));

      // Another token is another viewer's answer, even of the same account (scopes may differ).
      const other = await h.app.request("/api/v1/timelines/home", as("two"));
      assert.equal(((await other.json()) as { viewer: string }).viewer, "a2");
      await h.app.request("/api/v1/timelines/home", as("one-again"));
      assert.equal(h.renders, 3);
      // Nor is a signed-in answer an anonymous one, or the other way round.
      await h.app.request("/api/v1/timelines/public");
      await h.app.request("/api/v1/timelines/public", as("one"));
      assert.equal(h.renders, 5);

      h.write();
      const after = await h.app.request("/api/v1/timelines/home", as("one"));
      assert.deepEqual(await after.json(), {
        version: 2,
        renders: 6,
        query: null,
        viewer: "a1",
      });
    });

    it("answers from what is kept only for a token verified at the version kept", async () => {
      const h = harness(5, 5);
      await h.app.request("/api/v1/timelines/home", as("one"));
      // An unknown (or revoked) token: the route answers, whatever is kept.
      await h.app.request("/api/v1/timelines/home", as("nobody"));
      assert.equal(h.renders, 2);
      // The token was looked up before a write the version now shows: rendered, and not kept.
      h.write();
      h.lookUpAt(1);
      await h.app.request("/api/v1/timelines/home", as("one"));
      await h.app.request("/api/v1/timelines/home", as("one"));
      assert.equal(h.renders, 4);
      h.lookUpAt(undefined);
      await h.app.request("/api/v1/timelines/home", as("one"));
      await h.app.request("/api/v1/timelines/home", as("one"));
      assert.equal(h.renders, 5);
    });

    it("keeps an answer no longer than its time or the viewer's next lapse", async () => {
      const h = harness(5, 5);
      /** Kept `ms` after it is rendered, not a millisecond longer. */
      const keptFor = async (token: string, ms: number) => {
        const read = () => h.app.request("/api/v1/timelines/home", as(token));
        const before = h.renders;
        await read();
        h.advance(ms - 1);
        await read();
        assert.equal(h.renders, before + 1);
        h.advance(1);
        await read();
        assert.equal(h.renders, before + 2);
      };
      await keptFor("one", 5_000);
      h.lapseAt(h.now + 1_000); // a mute or filter of the viewer's ends in a second
      await keptFor("two", 1_000);
    });

    it("renders a request that asks no-cache, and keeps its answer", async () => {
      const h = harness(5, 5);
      await h.app.request("/api/v1/timelines/home", as("one"));
      await h.app.request("/api/v1/timelines/home", as("one", { "cache-control": "no-cache" }));
      await h.app.request("/api/v1/timelines/home", as("one", { pragma: "no-cache" }));
      assert.equal(h.renders, 3);
      const kept = await h.app.request("/api/v1/timelines/home", as("one"));
      assert.equal(((await kept.json()) as { renders: number }).renders, 3);
      assert.equal(h.renders, 3);
      await h.app.request("/api/v1/timelines/public", { headers: { "cache-control": "no-cache" } });
      await h.app.request("/api/v1/timelines/public", { headers: { "cache-control": "no-cache" } });
      assert.equal(h.renders, 5);
    });

    it("keeps nothing signed in when the time is 0, and nothing outside the reads listed", async () => {
      const h = harness(5, 0);
      await h.app.request("/api/v1/timelines/home", as("one"));
      await h.app.request("/api/v1/timelines/home", as("one"));
      assert.equal(h.renders, 2);
      const on = harness(5, 5);
      await on.app.request("/api/v1/markers", as("one"));
      await on.app.request("/api/v1/markers", as("one"));
      assert.equal(on.renders, 2);
    });

    it("lets concurrent misses of one token's page share a single rendering", async () => {
      const h = harness(5, 5);
      h.hold();
      const answers = Array.from({ length: 4 }, () =>
        h.app.request("/api/v1/timelines/home", as("one")),
      );
      await new Promise((resolve) => setImmediate(resolve));
      h.release();
      const bodies = await Promise.all((await Promise.all(answers)).map((r) => r.text()));
      assert.equal(h.renders, 1);
      for (const body of bodies) assert.equal(body, bodies[0]);
    });
  });
});
