// Prepares a data directory for the federation scenarios, straight in storage before Wren
// starts: a local account ("viewer") with its actor keys and a token, one remote account per
// actor of the simulated peers (fresh records with inbox and shared inbox, as if fetched just
// now), every one of them following the viewer (the fan-out audience), and the viewer
// following the first `senders` of them (whose posts the inbox must then accept and store).

import type { webcrypto } from "node:crypto";
import { exportJwk } from "@fedify/fedify";
import { loadConfig } from "../../src/config/load.ts";
import type { Account } from "../../src/domain/account.ts";
import type { Follow } from "../../src/domain/relations.ts";
import { createActorKeys } from "../../src/federation/keys.ts";
import type { KvStore } from "../../src/storage/ports.ts";
import { createServices } from "../../src/wiring/services.ts";
import { openStorage } from "../../src/wiring/storage.ts";
import { remoteActorInfo } from "../../test/helpers/records.ts";
import { actorName, type Peers } from "./peers.ts";
import { createViewer } from "./seed.ts";

export interface RemoteActor {
  accountId: string;
  uri: string;
  /** Index of the peers process serving it (its key). */
  process: number;
}

export interface FederationSeeded {
  token: string;
  viewerId: string;
  viewerUri: string;
  /** The viewer's RSA private key, the one Wren signs its deliveries with. */
  viewerKey: webcrypto.CryptoKey;
  /** The remote actors the viewer follows, spread over as many servers as possible. */
  senders: RemoteActor[];
  followers: number;
}

const BATCH = 2000;

/** Stores an actor's pairs where keys.ts looks (its StoredKeys), the RSA one of `bits`. */
async function storeActorKeys(kv: KvStore, accountId: string, bits: number, now: string) {
  const pair = async (algorithm: webcrypto.RsaHashedKeyGenParams | "Ed25519") => {
    const keys = (await crypto.subtle.generateKey(algorithm, true, [
      "sign",
      "verify",
    ])) as webcrypto.CryptoKeyPair;
    return {
      publicKey: await exportJwk(keys.publicKey),
      privateKey: await exportJwk(keys.privateKey),
    };
  };
  const value = {
    rsa: await pair({
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: bits,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-256",
    }),
    ed25519: await pair("Ed25519"),
  };
  const entry = { key: ["wren", "actorKeys", accountId], value, expiresAt: null };
  if (!(await kv.compareAndSet(undefined, entry, now))) throw new Error("actor keys already set");
}

async function inBatches<T>(items: readonly T[], write: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH) {
    await Promise.all(items.slice(i, i + BATCH).map(write));
  }
}

export async function seedFederation(
  env: Record<string, string>,
  peers: Peers,
  options: {
    senders: number;
    /**
     * The viewer's RSA modulus in bits, stored before Wren would make its own (keys.ts:
     * 2048 bits, ADR 0082): to see what the key's size costs the fan-out.
     */
    rsaBits?: number;
  },
): Promise<FederationSeeded> {
  const config = loadConfig(env);
  const storage = await openStorage(config);
  try {
    const { ctx } = createServices(config, storage);
    const { viewer, secret } = await createViewer(ctx);
    if (options.rsaBits !== undefined) {
      await storeActorKeys(storage.kv, viewer.id, options.rsaBits, ctx.clock.now().toISOString());
    }
    // The same pairs Wren will find and sign with (generated now, stored in the kv store).
    const [rsa] = await createActorKeys(storage.kv, ctx.clock).pairsOf(viewer.id);
    const now = ctx.clock.now().toISOString();

    // Actor-major order (u0 of every server, then u1…): the first `senders` span all servers.
    const remote: (Account & { process: number })[] = [];
    for (let a = 0; a < peers.actorsPerServer; a++) {
      for (const server of peers.servers) {
        const name = actorName(a);
        const uri = `${server.origin}/users/${name}`;
        remote.push({
          ...viewer,
          id: ctx.ids.next(),
          username: name,
          domain: server.host,
          displayName: name,
          note: "",
          noteHtml: "",
          fields: [],
          avatar: null,
          header: null,
          uri,
          url: uri,
          createdAt: now,
          updatedAt: now,
          // statusesCount stays null: the API then counts the statuses we hold (the inbox
          // scenario polls it).
          remote: remoteActorInfo(uri, now, { sharedInbox: `${server.origin}/inbox` }),
          process: server.process,
        });
      }
    }
    await inBatches(remote, ({ process: _, ...account }) => storage.accounts.put(account));
    const follow = (accountId: string, targetId: string, uri: string): Follow => ({
      id: ctx.ids.next(),
      accountId,
      targetId,
      createdAt: now,
      showReblogs: true,
      notify: false,
      languages: null,
      uri,
    });
    await inBatches(remote, (a) =>
      storage.follows.put(follow(a.id, viewer.id, `${a.uri}#follows/viewer`)),
    );
    const senders = remote.slice(0, options.senders);
    await inBatches(senders, (a) =>
      storage.follows.put(follow(viewer.id, a.id, `${config.publicUrl}/follows/${a.id}`)),
    );
    return {
      token: secret,
      viewerId: viewer.id,
      viewerUri: viewer.uri,
      viewerKey: rsa?.privateKey as webcrypto.CryptoKey,
      senders: senders.map((a) => ({ accountId: a.id, uri: a.uri, process: a.process })),
      followers: remote.length,
    };
  } finally {
    await storage.close();
  }
}
