// Signed GETs as a peer server makes them (authorized fetch): a real Wren instance signs with
// one of its own accounts' keys, through a Fedify federation built over that instance's
// services, so the server receiving the GET fetches the signer's actor document from it.

import type { webcrypto } from "node:crypto";
import { signRequest } from "@fedify/fedify";
import type { Account } from "../../src/domain/account.ts";
import { createWrenFederation } from "../../src/federation/federation.ts";
import { remoteAccountRecord, remoteActorInfo } from "../helpers/records.ts";
import type { TestServer } from "../helpers/server.ts";
import { AP_ACCEPT, type Json } from "./helpers.ts";

/** GETs `url` signed (HTTP Signatures, RSA) as `username` of the `signer` instance. */
export async function signedGet(
  signer: TestServer,
  username: string,
  url: string,
): Promise<{ status: number; body: Json }> {
  const { federation } = createWrenFederation(signer.wren.ctx, { allowPrivateAddress: true });
  const fctx = federation.createContext(new URL(signer.url), signer.wren.ctx);
  const [rsa] = await fctx.getActorKeyPairs(username);
  if (!rsa) throw new Error(`no keys for ${username}`);
  // ActorKeyPair extends the DOM's CryptoKeyPair, which this project's type libraries lack.
  const { privateKey } = rsa as unknown as webcrypto.CryptoKeyPair;
  const request = await signRequest(
    new Request(url, { headers: { accept: AP_ACCEPT } }),
    privateKey,
    rsa.keyId,
  );
  const res = await fetch(request, { redirect: "manual" });
  const text = await res.text();
  let body: Json = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: kept as text for the assertion message.
  }
  return { status: res.status, body };
}

/**
 * Makes `server` know `username` of the `peer` instance as a remote account, as ingesting its
 * actor document would (stored straight through the storage port until that exists).
 */
export async function rememberPeerAccount(
  server: TestServer,
  peer: TestServer,
  username: string,
): Promise<Account> {
  const host = new URL(peer.url).host;
  const uri = `${peer.url}/users/${username}`;
  const account = remoteAccountRecord(server, username, host, {
    uri,
    url: `${peer.url}/@${username}`,
    remote: remoteActorInfo(uri, server.wren.ctx.clock.now().toISOString(), {
      sharedInbox: `${peer.url}/inbox`,
      following: `${uri}/following`,
    }),
  });
  await server.wren.ctx.storage.accounts.put(account);
  return account;
}

/** Stores a follow edge `follower` → `target` on `server`. */
export async function storeFollow(
  server: TestServer,
  follower: Account,
  target: Account,
): Promise<void> {
  const ctx = server.wren.ctx;
  await ctx.storage.follows.put({
    id: ctx.ids.next(),
    accountId: follower.id,
    targetId: target.id,
    createdAt: ctx.clock.now().toISOString(),
    showReblogs: true,
    notify: false,
    languages: null,
    uri: `${follower.uri}#follows/${ctx.ids.next()}`,
  });
}
