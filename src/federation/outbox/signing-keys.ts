// The private keys deliveries are signed with, imported once per process. A queued delivery
// carries its sender's keys as JWK (Fedify's outbox message); importing an RSA key from JWK
// costs about as much as the signature itself, and Fedify 2.3.6 did it for every delivery.

import type { webcrypto } from "node:crypto";
import { importJwk } from "@fedify/fedify";

type CryptoKey = webcrypto.CryptoKey;
type JsonWebKey = webcrypto.JsonWebKey;

/** More distinct keys than this (senders × algorithms) and the oldest are imported again. */
const KEPT = 1000;

export interface SigningKeys {
  /** The private key of `jwk`, imported on first use. */
  get(keyId: string, jwk: JsonWebKey): Promise<CryptoKey>;
}

export function createSigningKeys(): SigningKeys {
  const imported = new Map<string, Promise<CryptoKey>>();
  return {
    get(keyId, jwk) {
      // The private part is in the name: a key id whose key was replaced gets the new key.
      const name = `${keyId}\n${jwk.kty}\n${jwk.d ?? ""}`;
      let key = imported.get(name);
      if (!key) {
        if (imported.size >= KEPT) imported.delete(imported.keys().next().value as string);
        key = importJwk(jwk, "private");
        imported.set(name, key);
        key.catch(() => imported.delete(name));
      }
      return key;
    },
  };
}
