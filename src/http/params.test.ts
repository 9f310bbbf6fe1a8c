import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono } from "hono";
import { z } from "zod";
import type { HttpEnv } from "./env.ts";
import { handleError } from "./middleware/errors.ts";
import { nestParams, readParams, readValidParams, validate } from "./params.ts";
import { booleanParam, idParam, integerParam, limitParam, listParam } from "./schemas.ts";

// A minimal app that echoes what readParams saw, to drive the real body parsing.
function echoApp() {
  const app = new Hono<HttpEnv>();
  app.onError(handleError);
  app.all("/echo", async (c) => {
    const params = await readParams(c);
    const plain = JSON.parse(
      JSON.stringify(params, (_k, v) => (v instanceof File ? `file:${v.name}:${v.size}` : v)),
    );
    return c.json(plain);
  });
  return app;
}

describe("nestParams", () => {
  it("builds Rails-style arrays and hashes", () => {
    const params = nestParams([
      ["id[]", "1"],
      ["id[]", "2"],
      ["poll[options][]", "a"],
      ["poll[options][]", "b"],
      ["poll[expires_in]", "300"],
      ["fields_attributes[0][name]", "Site"],
      ["fields_attributes[0][value]", "https://example.com"],
      ["fields_attributes[1][name]", "Pronouns"],
      ["plain", "x"],
    ]);
    assert.deepEqual(JSON.parse(JSON.stringify(params)), {
      id: ["1", "2"],
      poll: { options: ["a", "b"], expires_in: "300" },
      fields_attributes: {
        "0": { name: "Site", value: "https://example.com" },
        "1": { name: "Pronouns" },
      },
      plain: "x",
    });
  });

  it("builds lists of objects from `a[][b]`, a repeated field starting the next object", () => {
    const params = nestParams([
      ["keywords_attributes[][keyword]", "foo"],
      ["keywords_attributes[][whole_word]", "false"],
      ["keywords_attributes[][keyword]", "bar"],
      ["keywords_attributes[][id]", "7"],
      ["keywords_attributes[][_destroy]", "1"],
    ]);
    assert.deepEqual(JSON.parse(JSON.stringify(params)), {
      keywords_attributes: [
        { keyword: "foo", whole_word: "false" },
        { keyword: "bar", id: "7", _destroy: "1" },
      ],
    });
  });

  it("refuses prototype pollution", () => {
    assert.throws(() => nestParams([["__proto__[admin]", "1"]]), /Invalid parameter/);
    assert.throws(() => nestParams([["a[constructor][prototype]", "1"]]), /Invalid parameter/);
    assert.equal(({} as Record<string, unknown>).admin, undefined);
  });

  it("refuses absurd nesting and parameter floods", () => {
    assert.throws(() => nestParams([["a[b][c][d][e][f][g][h][i]", "1"]]), /too deep/);
    const flood = Array.from({ length: 1001 }, (_, i) => [`k${i}`, "v"] as [string, string]);
    assert.throws(() => nestParams(flood), /Too many/);
  });
});

describe("readParams", () => {
  const app = echoApp();

  it("reads the same parameters from query, JSON, form and multipart", async () => {
    const query = await app.request("/echo?id[]=1&id[]=2&sensitive=true");
    assert.deepEqual(await query.json(), { id: ["1", "2"], sensitive: "true" });

    const json = await app.request("/echo", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: ["1", "2"], sensitive: true }),
    });
    assert.deepEqual(await json.json(), { id: ["1", "2"], sensitive: true });

    const form = await app.request("/echo", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "id%5B%5D=1&id%5B%5D=2&sensitive=true",
    });
    assert.deepEqual(await form.json(), { id: ["1", "2"], sensitive: "true" });

    const data = new FormData();
    data.append("id[]", "1");
    data.append("id[]", "2");
    data.append("file", new File([new Uint8Array(3)], "a.png"));
    const multipart = await app.request("/echo", { method: "POST", body: data });
    assert.deepEqual(await multipart.json(), { id: ["1", "2"], file: "file:a.png:3" });
  });

  it("lets the body win over the query string", async () => {
    const res = await app.request("/echo?a=query&b=query", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ a: "body" }),
    });
    assert.deepEqual(await res.json(), { a: "body", b: "query" });
  });

  it("answers malformed JSON with 400 and an error body", async () => {
    for (const body of ["{", "[1,2]", "null", '"text"']) {
      const res = await app.request("/echo", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      assert.equal(res.status, 400, body);
      const payload = (await res.json()) as { error: string };
      assert.match(payload.error, /JSON/);
    }
  });

  it("answers a broken multipart body with 400", async () => {
    const res = await app.request("/echo", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=xyz" },
      body: '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated',
    });
    assert.equal(res.status, 400);
  });
});

describe("parameter types", () => {
  it("accept booleans in every form clients send", () => {
    for (const yes of [true, 1, "true", "1", "on", "TRUE", "t", "yes"]) {
      assert.equal(booleanParam.parse(yes), true, String(yes));
    }
    for (const no of [false, 0, "false", "0", "off", "f", "no"]) {
      assert.equal(booleanParam.parse(no), false, String(no));
    }
    assert.equal(booleanParam.safeParse("maybe").success, false);
    assert.equal(booleanParam.safeParse(2).success, false);
  });

  it("parse integers, ids, lists and limits", () => {
    assert.equal(integerParam.parse("42"), 42);
    assert.equal(integerParam.safeParse("4.2").success, false);
    assert.equal(idParam.parse(123), "123");
    assert.equal(idParam.safeParse("12a").success, false);
    assert.deepEqual(listParam(z.string()).parse("a"), ["a"]);
    assert.deepEqual(listParam(z.string()).parse(["a", "b"]), ["a", "b"]);
    const limit = limitParam(20, 40);
    assert.equal(limit.parse(undefined), 20);
    assert.equal(limit.parse("100"), 40);
    assert.equal(limit.parse("0"), 1);
  });

  it("reports validation failures as 422 naming the field", () => {
    const schema = z.object({ visibility: z.enum(["public", "private"]) });
    assert.throws(
      () => validate(schema, { visibility: "everyone" }),
      (error: unknown) => {
        const e = error as { status: number; message: string };
        return e.status === 422 && /visibility/.test(e.message);
      },
    );
  });
});

describe("readValidParams on GET", () => {
  // Counts zod's runs through a refinement, to see when a validated query is reused.
  let runs = 0;
  const schema = z
    .object({ limit: limitParam(20, 40), max_id: idParam.optional(), id: z.unknown().optional() })
    .refine(() => {
      runs += 1;
      return true;
    });
  const app = new Hono<HttpEnv>();
  app.onError(handleError);
  app.on(["GET", "POST"], "/page", async (c) => {
    const params = await readValidParams(c, schema);
    const seen = { ...params };
    // A caller changing its parameters changes nothing for the next request.
    (params as { limit: number }).limit = -1;
    return c.json(seen);
  });
  const get = async (query: string) => {
    const res = await app.request(`/page${query}`);
    return { status: res.status, body: await res.json() };
  };

  it("validates a query once and answers each request its own copy", async () => {
    runs = 0;
    assert.deepEqual((await get("?limit=30")).body, { limit: 30 });
    assert.deepEqual((await get("?limit=30")).body, { limit: 30 });
    assert.equal(runs, 1);
    // Another query is validated on its own.
    assert.deepEqual((await get("?limit=30&max_id=7")).body, { limit: 30, max_id: "7" });
    assert.equal(runs, 2);
    // A body is never taken for a kept query.
    const posted = await app.request("/page?limit=30", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ limit: 5 }),
    });
    assert.deepEqual(await posted.json(), { limit: 5 });
  });

  it("validates lists and invalid queries every time", async () => {
    runs = 0;
    assert.deepEqual((await get("?id[]=1&id[]=2")).body, { limit: 20, id: ["1", "2"] });
    await get("?id[]=1&id[]=2");
    assert.equal(runs, 2);
    assert.equal((await get("?max_id=x")).status, 422);
    assert.equal((await get("?max_id=x")).status, 422);
  });
});
