import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono, type MiddlewareHandler } from "hono";
import { AppError } from "../../domain/errors.ts";
import type { HttpEnv } from "../env.ts";
import { handleError } from "./errors.ts";
import { inTurn } from "./in-turn.ts";

/** Middlewares that answer, refuse, wrap and fail by the request's `?do=` parameter. */
const middlewares: MiddlewareHandler<HttpEnv>[] = [
  async (c, next) => {
    // Wraps: sees what the ones after it (and the route) answered, refusals included.
    await next();
    c.res.headers.set("x-outer-saw", String(c.res.status));
  },
  (c, next) => {
    if (c.req.query("do") === "refuse") throw new AppError(429, "Too many requests");
    if (c.req.query("do") === "answer") return Promise.resolve(c.json({ answered: "early" }, 202));
    return next();
  },
  async (c, next) => {
    if (c.req.query("do") === "fail") throw new Error("broken");
    if (c.req.query("do") === "detour") {
      // As the federation does: answers with what the route gave, through next().
      await next();
      return new Response(`detour of ${c.res.status}`, { status: 203 });
    }
    return next();
  },
];

function appWith(register: (app: Hono<HttpEnv>) => void) {
  const app = new Hono<HttpEnv>();
  app.onError(handleError);
  register(app);
  app.get("/r", (c) => c.json({ route: true }));
  app.get("/throws", () => {
    throw new AppError(404, "Record not found");
  });
  return app;
}

describe("inTurn", () => {
  const separately = appWith((app) => {
    for (const m of middlewares) app.use(m);
  });
  let firstRan = 0;
  const asOne = appWith((app) =>
    app.use(
      inTurn({
        first: () => {
          firstRan++;
        },
        rest: middlewares,
        passesAll: () => false,
        onError: handleError,
      }),
    ),
  );

  it("answers as the middlewares registered one by one do: refusals, early answers, errors, detours", async () => {
    const paths = ["/r", "/throws", "/nowhere"].flatMap((path) =>
      ["", "?do=refuse", "?do=answer", "?do=fail", "?do=detour"].map((q) => `${path}${q}`),
    );
    for (const path of paths) {
      const [a, b] = await Promise.all([separately.request(path), asOne.request(path)]);
      assert.equal(b.status, a.status, path);
      assert.deepEqual([...b.headers], [...a.headers], path);
      assert.equal(await b.text(), await a.text(), path);
    }
    assert.equal(firstRan, paths.length);
  });

  it("runs only the first step for a request every middleware would let through", async () => {
    let ran = 0;
    const app = appWith((a) =>
      a.use(
        inTurn({
          first: (c) => c.set("clientAddress", "192.0.2.1"),
          rest: [
            (_c, next) => {
              ran++;
              return next();
            },
          ],
          passesAll: (c) => c.req.query("skip") === "1",
          onError: handleError,
        }),
      ),
    );
    app.get("/address", (c) => c.text(c.get("clientAddress") ?? "none"));
    assert.equal(await (await app.request("/address?skip=1")).text(), "192.0.2.1");
    assert.equal(ran, 0);
    assert.equal(await (await app.request("/address")).text(), "192.0.2.1");
    assert.equal(ran, 1);
  });
});
