import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseExactJson } from "./exact-json.ts";

describe("parseExactJson", () => {
  it("keeps every digit of an integer beyond 2^53, as a string", () => {
    assert.deepEqual(parseExactJson('{"home":{"last_read_id":117678306780643328}}'), {
      home: { last_read_id: "117678306780643328" },
    });
    assert.deepEqual(parseExactJson("[9007199254740993, -9007199254740993]"), [
      "9007199254740993",
      "-9007199254740993",
    ]);
  });

  it("leaves safe integers, fractions, exponents and strings as JSON.parse gives them", () => {
    const text =
      '{"a":9007199254740991,"b":1.5,"c":1e21,"d":"117678306780643328","e":12345678901234567.5}';
    assert.deepEqual(parseExactJson(text), JSON.parse(text));
  });

  it("throws on invalid JSON like JSON.parse", () => {
    assert.throws(() => parseExactJson("{1234567890123456789"), SyntaxError);
  });
});
