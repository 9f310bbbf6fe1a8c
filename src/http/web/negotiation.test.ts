import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { wantsActivityJson } from "./negotiation.ts";

describe("wantsActivityJson", () => {
  it("is true for the ActivityPub media types peers send", () => {
    assert.equal(wantsActivityJson("application/activity+json"), true);
    assert.equal(
      wantsActivityJson('application/ld+json; profile="https://www.w3.org/ns/activitystreams"'),
      true,
    );
    assert.equal(wantsActivityJson("application/activity+json, application/ld+json"), true);
  });

  it("is false for browsers, plain JSON, wildcards and no header", () => {
    assert.equal(wantsActivityJson("text/html,application/xhtml+xml,*/*;q=0.8"), false);
    assert.equal(wantsActivityJson("application/json"), false);
    assert.equal(wantsActivityJson("*/*"), false);
    assert.equal(wantsActivityJson(undefined), false);
  });

  it("ranks by quality, then by order", () => {
    assert.equal(wantsActivityJson("text/html;q=0.5, application/activity+json"), true);
    assert.equal(wantsActivityJson("application/activity+json;q=0.5, text/html"), false);
    assert.equal(wantsActivityJson("application/activity+json, text/html"), true);
    assert.equal(wantsActivityJson("text/html, application/activity+json"), false);
    assert.equal(wantsActivityJson("application/activity+json;q=0"), false);
  });
});
