// verifiesWithKeptKey: the inbox's synchronous check of a draft-cavage signature. It must never
// accept what Fedify's verifyRequest refuses, so every refusal here is also checked to be one
// of Fedify's; what it leaves to Fedify (false) is only slower, not refused.

import assert from "node:assert/strict";
import { createHash, KeyObject, sign, type webcrypto } from "node:crypto";
import { describe, it } from "node:test";
import { generateCryptoKeyPair, type KeyCache, signRequest, verifyRequest } from "@fedify/fedify";
import { CryptographicKey } from "@fedify/vocab";
import { verifiesWithKeptKey } from "./draft-signature.ts";

const ACTOR = "https://peer.test/users/trent";
const KEY_ID = `${ACTOR}#main-key`;
const INBOX = "https://wren.test/inbox";
const BODY = JSON.stringify({ type: "Create", actor: ACTOR, id: `${ACTOR}/1`, text: "héllo" });

const pair = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
const other = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
const keyOf = (publicKey: webcrypto.CryptoKey) =>
  new CryptographicKey({ id: new URL(KEY_ID), owner: new URL(ACTOR), publicKey });
const keys = new Map([[KEY_ID, keyOf(pair.publicKey)]]);

const bytes = (text: string) => new TextEncoder().encode(text);
const sha256 = (text: string) => createHash("sha256").update(text).digest("base64");
const digestOf = (text: string) => `SHA-256=${sha256(text)}`;
/** Unix time `offset` seconds from now. */
const seconds = (offset: number) => Math.floor(Date.now() / 1000) + offset;

interface Draft {
  url?: string;
  body?: string;
  /** The body whose digest the Digest header gives (default: the body sent). */
  digestOf?: string;
  date?: Date;
  /** The names signed, in order. */
  signed?: string[];
  /** Extra Signature fields, e.g. `created=1`. */
  fields?: string[];
  key?: webcrypto.CryptoKey;
  keyId?: string;
  headers?: Record<string, string>;
}

/** A POST signed as a draft-cavage signer would, with each part overridable. */
function draft(options: Draft = {}): { request: Request; body: Uint8Array } {
  const url = new URL(options.url ?? INBOX);
  const body = options.body ?? BODY;
  const headers: Record<string, string> = {
    host: url.host,
    date: (options.date ?? new Date()).toUTCString(),
    digest: digestOf(options.digestOf ?? body),
    "content-type": "application/activity+json",
    ...options.headers,
  };
  const signed = options.signed ?? ["(request-target)", "host", "date", "digest"];
  const message = signed
    .map((name) =>
      name === "(request-target)" ? `${name}: post ${url.pathname}` : `${name}: ${headers[name]}`,
    )
    .join("\n");
  const signature = sign(
    "sha256",
    Buffer.from(message),
    KeyObject.from(options.key ?? pair.privateKey),
  ).toString("base64");
  const fields = [
    `keyId="${options.keyId ?? KEY_ID}"`,
    `algorithm="rsa-sha256"`,
    `headers="${signed.join(" ")}"`,
    `signature="${signature}"`,
    ...(options.fields ?? []),
  ];
  headers.signature = fields.join(",");
  return { request: new Request(url, { method: "POST", headers, body }), body: bytes(body) };
}

const keyCache: KeyCache = {
  get: async (id) => keys.get(id.href),
  set: async () => {},
};
const unreachable = async (): Promise<never> => {
  throw new Error("no fetching here");
};

/** Fedify's own verdict on the request, with the same keys. */
async function fedifyVerifies(request: Request): Promise<boolean> {
  const key = await verifyRequest(request, { keyCache, documentLoader: unreachable }).catch(
    () => null,
  );
  return key !== null;
}

describe("verifiesWithKeptKey", () => {
  it("verifies a signature made by Fedify's signRequest, as Fedify does", async () => {
    const signed = await signRequest(
      new Request(INBOX, { method: "POST", body: BODY }),
      pair.privateKey,
      new URL(KEY_ID),
    );
    assert.equal(verifiesWithKeptKey(signed.clone(), bytes(BODY), keys), true);
    assert.equal(await fedifyVerifies(signed), true);
  });

  it("verifies a Mastodon-style signature (host, date, digest, content-type)", async () => {
    const { request, body } = draft({
      signed: ["(request-target)", "host", "date", "digest", "content-type"],
    });
    assert.equal(verifiesWithKeptKey(request.clone(), body, keys), true);
    assert.equal(await fedifyVerifies(request), true);
  });

  /** Cases Fedify refuses: refused here too. */
  const refused: [string, () => { request: Request; body: Uint8Array }][] = [
    ["a body changed after signing", () => withBody(draft(), `${BODY} `)],
    ["a body changed, its Digest too", () => withBody(draft(), `${BODY} `, digestOf(`${BODY} `))],
    ["a Digest of another body", () => draft({ digestOf: "{}" })],
    ["a Date two hours old", () => draft({ date: new Date(Date.now() - 2 * 3600_000) })],
    ["a Date two hours ahead", () => draft({ date: new Date(Date.now() + 2 * 3600_000) })],
    ["a key the actor does not list under that id", () => draft({ key: other.privateKey })],
    ["another inbox than the one signed", () => retarget(draft(), "https://wren.test/x/inbox")],
    ["no digest among the signed headers", () => draft({ signed: ["(request-target)", "date"] })],
    ["no date among the signed headers", () => draft({ signed: ["(request-target)", "digest"] })],
    ["no request target signed", () => draft({ signed: ["host", "date", "digest"] })],
    ["a Date that is not a date", () => draft({ headers: { date: "yesterday" } })],
    ["an `expires` passed", () => draft({ fields: [`expires=${seconds(-60)}`] })],
    ["a `created` two minutes old", () => draft({ fields: [`created=${seconds(-120)}`] })],
  ];
  for (const [what, make] of refused) {
    it(`refuses ${what}, as Fedify does`, async () => {
      const { request, body } = make();
      assert.equal(verifiesWithKeptKey(request.clone(), body, keys), false);
      assert.equal(await fedifyVerifies(request), false);
    });
  }

  /** Cases left to Fedify: false here whatever Fedify says (it is asked next). */
  const leftToFedify: [string, () => { request: Request; body: Uint8Array }][] = [
    ["a key id it does not keep", () => draft({ keyId: `${ACTOR}#other-key` })],
    ["a signed header the request lacks", () => draft({ signed: [...SIGNED, "x-missing"] })],
    ["a pseudo-header", () => draft({ signed: [...SIGNED, "(created)"] })],
    ["a signature without its padding", () => unpadded(draft())],
    [
      "a Digest named in lower case",
      () => draft({ headers: { digest: `sha-256=${sha256(BODY)}` } }),
    ],
  ];
  for (const [what, make] of leftToFedify) {
    it(`leaves ${what} to Fedify`, () => {
      const { request, body } = make();
      assert.equal(verifiesWithKeptKey(request, body, keys), false);
    });
  }

  it("leaves an RFC 9421 signature to Fedify", async () => {
    const signed = await signRequest(
      new Request(INBOX, { method: "POST", body: BODY }),
      pair.privateKey,
      new URL(KEY_ID),
      { spec: "rfc9421" },
    );
    assert.equal(verifiesWithKeptKey(signed, bytes(BODY), keys), false);
  });
});

const SIGNED = ["(request-target)", "host", "date", "digest"];

/** The same request with the signature's base64 padding taken off. */
function unpadded(signed: { request: Request; body: Uint8Array }) {
  const headers = new Headers(signed.request.headers);
  headers.set("signature", (headers.get("signature") as string).replace(/=+"$/, '"'));
  return {
    request: new Request(INBOX, { method: "POST", headers, body: BODY }),
    body: signed.body,
  };
}

/** The same signed headers, another body (and Digest header, if given). */
function withBody(signed: { request: Request }, body: string, digest?: string) {
  const headers = new Headers(signed.request.headers);
  if (digest !== undefined) headers.set("digest", digest);
  return { request: new Request(INBOX, { method: "POST", headers, body }), body: bytes(body) };
}

/** The same signed headers and body, posted to another URL. */
function retarget(signed: { request: Request; body: Uint8Array }, url: string) {
  return {
    request: new Request(url, { method: "POST", headers: signed.request.headers, body: BODY }),
    body: signed.body,
  };
}
