import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono } from "hono";
import { AppError, unprocessable } from "../../domain/errors.ts";
import type { HttpEnv } from "../env.ts";
import { handleError } from "./errors.ts";

describe("error mapper", () => {
  const app = new Hono<HttpEnv>();
  app.onError(handleError);
  app.get("/bug", () => {
    throw new TypeError("secret internals at /srv/wren/src/x.ts:12");
  });
  app.get("/invalid", () => {
    throw unprocessable("Validation failed: Username can't be blank", { details: { a: 1 } });
  });
  app.get("/oauth", () => {
    throw new AppError(400, "invalid_grant", { description: "The code is expired" });
  });

  it("hides unexpected errors behind a bare 500", async () => {
    const res = await app.request("/bug");
    assert.equal(res.status, 500);
    const text = await res.text();
    assert.deepEqual(JSON.parse(text), { error: "Internal server error" });
    assert.doesNotMatch(text, /secret|srv|\.ts/);
  });

  it("renders domain errors with their status and extra fields", async () => {
    const res = await app.request("/invalid");
    assert.equal(res.status, 422);
    assert.deepEqual(await res.json(), {
      error: "Validation failed: Username can't be blank",
      details: { a: 1 },
    });
  });

  it("adds error_description where one is given", async () => {
    const res = await app.request("/oauth");
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      error: "invalid_grant",
      error_description: "The code is expired",
    });
  });
});
