import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hashSecret, newSecret, secretMatches } from "./secrets.ts";

describe("hashSecret", () => {
  it("is the hex SHA-256 of the secret's UTF-8 bytes, as every stored token hash was made", () => {
    assert.equal(
      hashSecret("abc"),
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    assert.equal(
      hashSecret("tökén"),
      "c61a705e32913a858921fec03c7dc0259250783f37e3d82341e7bda6fe7e7833",
    );
  });

  it("matches a secret against its stored hash, and nothing else", () => {
    const secret = newSecret();
    assert.equal(secretMatches(secret, hashSecret(secret)), true);
    assert.equal(secretMatches(`${secret}x`, hashSecret(secret)), false);
  });
});
