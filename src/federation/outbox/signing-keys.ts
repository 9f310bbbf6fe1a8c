// The private keys deliveries are signed with, imported once per process. A queued delivery
// carries its sender's keys as JWK (Fedify's outbox message); importing an RSA key from JWK
// costs about as much as the signature itself, and Fedify 2.3.6 did it for every delivery.

import {
  createPrivateKey,
  type KeyObject,
  type JsonWebKey as NodeJsonWebKey,
  type webcrypto,
} from "node:crypto";

type JsonWebKey = webcrypto.JsonWebKey;

/** More distinct keys than this (senders × algorithms) and the oldest are imported again. */
const KEPT = 1000;

export interface SigningKey {
  keyId: URL;
  /** For node:crypto (draft-cavage signatures, signed here). */
  keyObject: KeyObject;
  /** For Fedify's signRequest (RFC 9421, the rare second knock); made on first use. */
  cryptoKey(): Promise<webcrypto.CryptoKey>;
}

export interface SigningKeys {
  /** The RSA private key of `jwk` (RSASSA-PKCS1-v1_5, SHA-256), imported on first use. */
  get(keyId: string, jwk: JsonWebKey): SigningKey;
}

function imported(keyId: string, jwk: JsonWebKey): SigningKey {
  const keyObject = createPrivateKey({ key: jwk as NodeJsonWebKey, format: "jwk" });
  let cryptoKey: Promise<webcrypto.CryptoKey> | undefined;
  return {
    keyId: new URL(keyId),
    keyObject,
    cryptoKey() {
      cryptoKey ??= Promise.resolve(
        keyObject.toCryptoKey({ name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, true, ["sign"]),
      );
      return cryptoKey;
    },
  };
}

export function createSigningKeys(): SigningKeys {
  const kept = new Map<string, SigningKey>();
  return {
    get(keyId, jwk) {
      // The private part is in the name: a key id whose key was replaced gets the new key.
      const name = `${keyId}\n${jwk.kty}\n${jwk.d ?? ""}`;
      let key = kept.get(name);
      if (!key) {
        if (kept.size >= KEPT) kept.delete(kept.keys().next().value as string);
        key = imported(keyId, jwk);
        kept.set(name, key);
      }
      return key;
    },
  };
}
