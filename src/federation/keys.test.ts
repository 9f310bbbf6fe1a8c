// Actor key pairs (ADR 0082): a new actor gets an RSA-2048 pair (Mastodon's size) that signs
// and verifies, plus Ed25519; a pair stored before, of whatever size, is what the actor keeps.

import assert from "node:assert/strict";
import { KeyObject, type webcrypto } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { exportJwk } from "@fedify/fedify";
import { systemClock } from "../domain/clock.ts";
import { openJsonFileStorage } from "../storage/json-file/index.ts";
import type { Storage } from "../storage/ports.ts";
import { createActorKeys, RSA_MODULUS_BITS } from "./keys.ts";

const modulusBits = (key: webcrypto.CryptoKey) =>
  KeyObject.from(key).asymmetricKeyDetails?.modulusLength;

describe("actor keys", () => {
  let dir: string;
  let storage: Storage;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-actor-keys-"));
    storage = await openJsonFileStorage(dir);
  });
  after(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("gives a new actor an RSA-2048 pair that signs, and an Ed25519 pair", async () => {
    const [rsa, ed25519] = await createActorKeys(storage.kv, systemClock).pairsOf("1");
    assert.ok(rsa && ed25519);
    assert.equal(RSA_MODULUS_BITS, 2048);
    assert.equal(modulusBits(rsa.publicKey), 2048);
    assert.equal(modulusBits(rsa.privateKey), 2048);
    assert.equal(ed25519.publicKey.algorithm.name, "Ed25519");
    const data = new TextEncoder().encode("(request-target): post /inbox");
    const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", rsa.privateKey, data);
    assert.ok(await crypto.subtle.verify("RSASSA-PKCS1-v1_5", rsa.publicKey, signature, data));
  });

  it("keeps a pair stored before, whatever its size, across new processes", async () => {
    const old = (await crypto.subtle.generateKey(
      {
        name: "RSASSA-PKCS1-v1_5",
        modulusLength: 4096,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: "SHA-256",
      },
      true,
      ["sign", "verify"],
    )) as webcrypto.CryptoKeyPair;
    const ed = (await crypto.subtle.generateKey("Ed25519", true, [
      "sign",
      "verify",
    ])) as webcrypto.CryptoKeyPair;
    const pair = async (p: webcrypto.CryptoKeyPair) => ({
      publicKey: await exportJwk(p.publicKey),
      privateKey: await exportJwk(p.privateKey),
    });
    const value = { rsa: await pair(old), ed25519: await pair(ed) };
    const entry = { key: ["wren", "actorKeys", "2"], value, expiresAt: null };
    assert.ok(await storage.kv.compareAndSet(undefined, entry, new Date().toISOString()));
    // A fresh instance of the keys (another process) reads the stored pair, never a new one.
    const [rsa] = await createActorKeys(storage.kv, systemClock).pairsOf("2");
    assert.ok(rsa);
    assert.equal(modulusBits(rsa.publicKey), 4096);
    assert.deepEqual(await exportJwk(rsa.publicKey), value.rsa.publicKey);
  });
});
