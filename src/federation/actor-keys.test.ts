// checkSigner on an inbox POST whose body was read once (received-body.ts): the signature is
// checked on those bytes, the actor's document fetched once and kept, and the kept copy not
// parsed again by the next check (a fetched document's parse is kept with it).

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Context, generateCryptoKeyPair, signRequest } from "@fedify/fedify";
import { CryptographicKey, Person } from "@fedify/vocab";
import { type DocumentLoader, preloadedContexts } from "@fedify/vocab-runtime";
import { systemClock } from "../domain/clock.ts";
import type { ServiceContext } from "../services/context.ts";
import { openJsonFileStorage } from "../storage/json-file/index.ts";
import type { Storage } from "../storage/ports.ts";
import { checkSigner } from "./actor-keys.ts";
import { receivePost } from "./inbox/received-body.ts";

const ACTOR = "https://peer.test/users/trent";
const INBOX = "https://wren.test/inbox";

const keys = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
const person = new Person({
  id: new URL(ACTOR),
  preferredUsername: "trent",
  inbox: new URL(`${ACTOR}/inbox`),
  publicKey: new CryptographicKey({
    id: new URL(`${ACTOR}#main-key`),
    owner: new URL(ACTOR),
    publicKey: keys.publicKey,
  }),
});
const actorDocument = await person.toJsonLd({ format: "compact" });

async function signedPost(body: string): Promise<Request> {
  return signRequest(
    new Request(INBOX, { method: "POST", body }),
    keys.privateKey,
    new URL(`${ACTOR}#main-key`),
  );
}

describe("checkSigner on a body read once", () => {
  let dir: string;
  let storage: Storage;
  let fetches = 0;
  let contextLoads = 0;
  let fctx: Context<ServiceContext>;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-actor-keys-"));
    storage = await openJsonFileStorage(dir);
    const actorLoader: DocumentLoader = async (url) => {
      fetches++;
      assert.equal(url, ACTOR);
      return { contextUrl: null, documentUrl: ACTOR, document: actorDocument };
    };
    // Every JSON-LD parse of the actor's document asks for its contexts.
    const contextLoader: DocumentLoader = async (url) => {
      contextLoads++;
      return { contextUrl: null, documentUrl: url, document: preloadedContexts[url] };
    };
    fctx = {
      data: { storage, clock: systemClock, settings: { domain: "wren.test" } },
      contextLoader,
      documentLoader: actorLoader,
      getDocumentLoader: async () => actorLoader,
    } as unknown as Context<ServiceContext>;
  });

  after(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  const check = async (request: Request) =>
    checkSigner(fctx, request, {}, new URL(ACTOR), { received: await receivePost(request) });

  it("verifies, fetching the document once and parsing the kept copy no more", async () => {
    assert.deepEqual(await check(await signedPost('{"n":1}')), {
      verdict: "verified",
      by: "request",
    });
    assert.equal(fetches, 1);
    const loadsAfterFirst = contextLoads;
    assert.ok(loadsAfterFirst > 0, "the fetched document was parsed");
    assert.equal((await check(await signedPost('{"n":2}'))).verdict, "verified");
    assert.equal(fetches, 1);
    assert.equal(contextLoads, loadsAfterFirst, "the kept copy was parsed again");
  });

  it("refuses a body changed after signing (the bytes read are what is checked)", async () => {
    const signed = await signedPost('{"n":3}');
    const changed = new Request(INBOX, {
      method: "POST",
      headers: signed.headers,
      body: '{"n":4}',
    });
    assert.equal((await check(changed)).verdict, "forged");
  });
});
