// Password hashes: production's scrypt parameters stay what they are (the tests' servers use a
// lower cost through WREN_PASSWORD_HASH_COST, test/helpers/server.ts), and a hash carries its
// own cost, so hashes of either cost verify.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadConfig } from "../../config/load.ts";
import {
  DEFAULT_PASSWORD_HASH_COST,
  hashPassword,
  MAX_PASSWORD_HASH_COST,
  verifyPassword,
} from "./passwords.ts";

describe("password hashes", () => {
  it("use scrypt with N = 2^15, r = 8, p = 1 and a 32-byte key by default, in production too", async () => {
    assert.equal(DEFAULT_PASSWORD_HASH_COST, 15);
    // What a server gets without WREN_PASSWORD_HASH_COST.
    assert.equal(loadConfig({}).passwordHashCost, DEFAULT_PASSWORD_HASH_COST);
    const hash = await hashPassword("correct horse battery staple");
    const [scheme, n, r, p, salt, key] = hash.split("$");
    assert.deepEqual([scheme, n, r, p], ["scrypt", "32768", "8", "1"]);
    assert.equal(Buffer.from(salt ?? "", "base64").length, 16);
    assert.equal(Buffer.from(key ?? "", "base64").length, 32);
    assert.equal(await verifyPassword("correct horse battery staple", hash), true);
    assert.equal(await verifyPassword("correct horse battery stapl", hash), false);
  });

  it("take the configured cost, which the hash records, and verify whatever their cost", async () => {
    const cheap = await hashPassword("correct horse battery staple", 10);
    assert.match(cheap, /^scrypt\$1024\$8\$1\$/);
    assert.equal(await verifyPassword("correct horse battery staple", cheap), true);
    assert.equal(await verifyPassword("wrong horse battery staple", cheap), false);
  });

  it("refuse a configured cost below 2^10 or above the highest the memory cap allows", () => {
    assert.equal(loadConfig({ WREN_PASSWORD_HASH_COST: "10" }).passwordHashCost, 10);
    assert.equal(MAX_PASSWORD_HASH_COST, 17);
    assert.equal(loadConfig({ WREN_PASSWORD_HASH_COST: "17" }).passwordHashCost, 17);
    for (const bad of ["9", "18", "15.5", "fast"]) {
      assert.throws(() => loadConfig({ WREN_PASSWORD_HASH_COST: bad }), /WREN_PASSWORD_HASH_COST/);
    }
  });

  it("never salt two hashes of one password alike", async () => {
    const [a, b] = await Promise.all([
      hashPassword("same password", 10),
      hashPassword("same password", 10),
    ]);
    assert.notEqual(a, b);
  });
});
