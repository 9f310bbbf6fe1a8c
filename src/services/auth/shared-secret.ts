// Secrets every process of an instance must agree on (the OAuth pages' CSRF key): made once, at
// random, by whichever process needs one first, and kept in the storage's key–value store. The
// first write wins through compareAndSet, so two processes starting together still end up with
// one secret; each process then keeps it in memory.

import { randomBytes } from "node:crypto";
import type { Storage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";

/** What reading a secret needs of the service context. */
export type SecretContext = Pick<ServiceContext, "storage" | "clock">;

const known = new WeakMap<Storage, Map<string, Promise<Buffer>>>();

const keyOf = (name: string) => ["wren", "secret", name];

async function load(ctx: SecretContext, name: string): Promise<Buffer> {
  const key = keyOf(name);
  for (;;) {
    const stored = await ctx.storage.kv.get(key);
    if (typeof stored?.value === "string") return Buffer.from(stored.value, "base64url");
    const made = randomBytes(32).toString("base64url");
    const now = ctx.clock.now().toISOString();
    const entry = { key, value: made, expiresAt: null };
    if (await ctx.storage.kv.compareAndSet(stored?.value, entry, now)) {
      return Buffer.from(made, "base64url");
    }
    // Another process stored one first: read it back.
  }
}

/** The instance-wide secret named `name` (32 random bytes), the same in every process. */
export function sharedSecret(ctx: SecretContext, name: string): Promise<Buffer> {
  let secrets = known.get(ctx.storage);
  if (!secrets) {
    secrets = new Map();
    known.set(ctx.storage, secrets);
  }
  let secret = secrets.get(name);
  if (!secret) {
    secret = load(ctx, name);
    secrets.set(name, secret);
    // A failed read (storage down) is tried again by the next request.
    secret.catch(() => secrets.delete(name));
  }
  return secret;
}
