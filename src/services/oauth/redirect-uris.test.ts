import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { OOB_URI, parseRedirectUris, redirectUriProblem } from "./redirect-uris.ts";

describe("redirect URIs", () => {
  it("splits strings on newlines and spaces and flattens lists", () => {
    assert.deepEqual(parseRedirectUris("https://a.example/cb\r\nhttps://b.example/cb "), [
      "https://a.example/cb",
      "https://b.example/cb",
    ]);
    assert.deepEqual(parseRedirectUris(["https://a.example/cb", OOB_URI]), [
      "https://a.example/cb",
      OOB_URI,
    ]);
    assert.deepEqual(parseRedirectUris(undefined), []);
  });

  it("accepts https, loopback, native-app schemes and the out-of-band URI", () => {
    for (const uri of [
      "https://a.example/cb?x=1",
      "http://127.0.0.1:8080/cb",
      "com.example.app:/oauth",
      "elk://callback",
      OOB_URI,
    ]) {
      assert.equal(redirectUriProblem([uri]), null, uri);
    }
  });

  it("names what is wrong", () => {
    assert.equal(redirectUriProblem([]), "can't be blank");
    assert.equal(redirectUriProblem(["a.example/cb"]), "must be an absolute URI.");
    assert.equal(redirectUriProblem(["https://a.example/cb#frag"]), "cannot contain a fragment.");
    assert.equal(redirectUriProblem(["javascript:alert(1)"]), "is forbidden by the server.");
    assert.equal(redirectUriProblem(["data:text/html,x"]), "is forbidden by the server.");
    assert.match(redirectUriProblem([`https://a.example/${"x".repeat(2000)}`]) ?? "", /too long/);
  });
});
