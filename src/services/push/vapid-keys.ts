// The instance's VAPID key pair (RFC 8292): push services check that every message to a
// subscription is signed by the key the app subscribed with (the `server_key` it was given), so
// the pair is made once, by whichever process needs it first, and kept for good in the storage's
// key–value store. The first write wins through compareAndSet: two processes starting together
// still publish one key. Each process then keeps it in memory.

import { createECDH } from "node:crypto";
import type { Storage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";

/** A P-256 pair as Web Push libraries take it: base64url, the public key uncompressed (65 bytes). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const KEY = ["wren", "vapid"];

const known = new WeakMap<Storage, Promise<VapidKeys>>();

function isVapidKeys(value: unknown): value is VapidKeys {
  const v = value as Partial<VapidKeys> | null;
  return typeof v?.publicKey === "string" && typeof v.privateKey === "string";
}

function generate(): VapidKeys {
  const curve = createECDH("prime256v1");
  curve.generateKeys();
  return {
    publicKey: curve.getPublicKey("base64url"),
    privateKey: curve.getPrivateKey("base64url"),
  };
}

async function load(ctx: Pick<ServiceContext, "storage" | "clock">): Promise<VapidKeys> {
  for (;;) {
    const stored = await ctx.storage.kv.get(KEY);
    if (isVapidKeys(stored?.value)) return stored.value;
    const made = generate();
    const entry = { key: KEY, value: made, expiresAt: null };
    if (await ctx.storage.kv.compareAndSet(stored?.value, entry, ctx.clock.now().toISOString())) {
      return made;
    }
    // Another process stored one first: read it back.
  }
}

/** The instance's VAPID pair, the same in every process and across restarts. */
export function vapidKeys(ctx: Pick<ServiceContext, "storage" | "clock">): Promise<VapidKeys> {
  let keys = known.get(ctx.storage);
  if (!keys) {
    keys = load(ctx);
    known.set(ctx.storage, keys);
    // A failed read (storage down) is tried again by the next caller.
    keys.catch(() => known.delete(ctx.storage));
  }
  return keys;
}
