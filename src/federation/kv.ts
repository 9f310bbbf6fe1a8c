// Fedify's KvStore over our durable key–value port. Fedify caches remote documents and keys,
// and remembers processed activities here; the port keeps them across restarts. Expiry is
// applied here, with Wren's clock, so tests that move the clock see entries expire.

import type {
  KvStore as FedifyKvStore,
  KvKey,
  KvStoreListEntry,
  KvStoreSetOptions,
} from "@fedify/fedify";
import type { Clock } from "../domain/clock.ts";
import { jsonEqual } from "../domain/json-equal.ts";
import type { KvEntry, KvStore } from "../storage/ports.ts";

function expiry(clock: Clock, options: KvStoreSetOptions | undefined): string | null {
  if (options?.ttl === undefined) return null;
  const ms = options.ttl.total({ unit: "milliseconds" });
  return new Date(clock.now().getTime() + ms).toISOString();
}

/**
 * Fedify's records of processed activities (`["_fedify", "activityIdempotence", …]`) are not
 * kept: Fedify 2.3.6 keys them on the activity id alone (its queue worker ignores the
 * `withIdempotency` strategy), so a peer reusing an id for a new activity (Hollo's Accepts and
 * poll Updates) was dropped for a day. Wren's once-guard (inbox/once.ts) keys on the id and the
 * body instead. Not writing them also saves a durable write per activity.
 */
function isIdempotenceRecord(key: KvKey): boolean {
  return key[0] === "_fedify" && key[1] === "activityIdempotence";
}

function isLive(entry: KvEntry, clock: Clock): boolean {
  return entry.expiresAt === null || Date.parse(entry.expiresAt) > clock.now().getTime();
}

export function createFedifyKv(store: KvStore, clock: Clock): FedifyKvStore {
  return {
    async get<T = unknown>(key: KvKey): Promise<T | undefined> {
      if (isIdempotenceRecord(key)) return undefined;
      const entry = await store.get(key);
      return entry !== undefined && isLive(entry, clock) ? (entry.value as T) : undefined;
    },
    async set(key, value, options) {
      if (isIdempotenceRecord(key)) return;
      const expiresAt = expiry(clock, options);
      // Fedify rewrites some entries unchanged after every delivery (which signature format a
      // server accepts): skipping the no-op saves a durable write per delivery.
      if (expiresAt === null) {
        const current = await store.get(key);
        if (
          current !== undefined &&
          current.expiresAt === null &&
          jsonEqual(current.value, value)
        ) {
          return;
        }
      }
      await store.set({ key, value, expiresAt });
    },
    async delete(key) {
      await store.delete(key);
    },
    async cas(key, expectedValue, newValue, options) {
      const next = { key, value: newValue, expiresAt: expiry(clock, options) };
      return store.compareAndSet(expectedValue, next, clock.now().toISOString());
    },
    async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
      for (const entry of await store.list(prefix ?? [])) {
        if (isLive(entry, clock)) yield { key: entry.key as KvKey, value: entry.value };
      }
    },
  };
}
