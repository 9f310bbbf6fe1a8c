// Actor key pairs: an RSA pair (HTTP Signatures, what Mastodon verifies) and an Ed25519 pair
// (Object Integrity Proofs), generated the first time an actor is needed and kept in the
// key–value store for good, since peers cache the public keys and a new pair would break the
// signatures they check. Private keys stay in the data directory, never in an account record.

import type { webcrypto } from "node:crypto";
import { exportJwk, importJwk } from "@fedify/fedify";
import type { Clock } from "../domain/clock.ts";
import type { KvStore } from "../storage/ports.ts";

type JsonWebKey = webcrypto.JsonWebKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

interface StoredPair {
  publicKey: JsonWebKey;
  privateKey: JsonWebKey;
}

interface StoredKeys {
  rsa: StoredPair;
  ed25519: StoredPair;
}

export interface ActorKeys {
  /** The RSA pair first (published as `publicKey`, `#main-key`), then Ed25519. */
  pairsOf(accountId: string): Promise<CryptoKeyPair[]>;
}

const keyOf = (accountId: string) => ["wren", "actorKeys", accountId];

/**
 * A new actor's RSA modulus: 2048 bits, as Mastodon gives its accounts (ADR 0082). Fedify's
 * generateCryptoKeyPair makes 4096-bit keys, whose signatures cost about thirteen times as much
 * CPU: two thirds of a delivery's. Pairs already stored keep their size (peers cache them).
 */
export const RSA_MODULUS_BITS = 2048;

const RSA_KEY: webcrypto.RsaHashedKeyGenParams = {
  name: "RSASSA-PKCS1-v1_5",
  modulusLength: RSA_MODULUS_BITS,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: "SHA-256",
};

async function generate(algorithm: "RSASSA-PKCS1-v1_5" | "Ed25519"): Promise<StoredPair> {
  const params = algorithm === "Ed25519" ? "Ed25519" : RSA_KEY;
  const pair = (await crypto.subtle.generateKey(params, true, ["sign", "verify"])) as CryptoKeyPair;
  return {
    publicKey: await exportJwk(pair.publicKey),
    privateKey: await exportJwk(pair.privateKey),
  };
}

async function load(stored: StoredPair): Promise<CryptoKeyPair> {
  return {
    publicKey: await importJwk(stored.publicKey, "public"),
    privateKey: await importJwk(stored.privateKey, "private"),
  };
}

export function createActorKeys(kv: KvStore, clock: Clock): ActorKeys {
  // Importing JWKs costs more than a map lookup; the pairs never change once stored.
  const cache = new Map<string, Promise<CryptoKeyPair[]>>();

  async function storedKeys(accountId: string): Promise<StoredKeys> {
    const existing = await kv.get(keyOf(accountId));
    if (existing) return existing.value as StoredKeys;
    const fresh: StoredKeys = {
      rsa: await generate("RSASSA-PKCS1-v1_5"),
      ed25519: await generate("Ed25519"),
    };
    const entry = { key: keyOf(accountId), value: fresh, expiresAt: null };
    // Two first requests may race: only one pair may ever be published, so the loser reads
    // the winner's.
    if (await kv.compareAndSet(undefined, entry, clock.now().toISOString())) return fresh;
    const winner = await kv.get(keyOf(accountId));
    if (!winner) throw new Error(`Key pairs of account ${accountId} vanished while being stored`);
    return winner.value as StoredKeys;
  }

  return {
    pairsOf(accountId) {
      let pairs = cache.get(accountId);
      if (!pairs) {
        pairs = storedKeys(accountId).then((keys) =>
          Promise.all([load(keys.rsa), load(keys.ed25519)]),
        );
        cache.set(accountId, pairs);
        pairs.catch(() => cache.delete(accountId));
      }
      return pairs;
    },
  };
}
