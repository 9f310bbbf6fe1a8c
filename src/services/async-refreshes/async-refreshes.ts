// Asynchronous refreshes (Mastodon 4.4's AsyncRefresh): a mark that background work for one
// user is under way, which the client polls through GET /api/v1_alpha/async_refreshes/:id or
// learns of from the Mastodon-Async-Refresh header. Wren's one such work is generating an
// annual report. The marks live in the durable key–value store, so every process sees them,
// and expire: a running mark after RUNNING_TTL_MS (a job that died stops counting as running;
// the durable queue retries it meanwhile), a finished one after FINISHED_TTL_MS.

import { notFound } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";

export type AsyncRefreshStatus = "running" | "finished";

export interface AsyncRefresh {
  /** What the client names it by: the refresh key, encoded (see asyncRefreshId). */
  id: string;
  status: AsyncRefreshStatus;
  /** How many results the work produced so far; null when it does not count them. */
  resultCount: number | null;
}

interface StoredRefresh {
  status: AsyncRefreshStatus;
  resultCount: number | null;
  /** The only account that may look it up. */
  ownerId: string;
}

const PREFIX = ["wren", "asyncRefresh"];
const RUNNING_TTL_MS = 15 * 60_000;
const FINISHED_TTL_MS = 60 * 60_000;

/**
 * The id of the refresh with this key. Mastodon signs its keys; Wren's ids are the key itself,
 * base64url-encoded, and guessing one gains nothing: only the owner may look a refresh up.
 */
export function asyncRefreshId(key: string): string {
  return Buffer.from(key, "utf8").toString("base64url");
}

function keyOfId(id: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(id)) return null;
  return Buffer.from(id, "base64url").toString("utf8");
}

function isStored(value: unknown): value is StoredRefresh {
  const v = value as StoredRefresh | null;
  return (
    typeof v === "object" &&
    v !== null &&
    (v.status === "running" || v.status === "finished") &&
    typeof v.ownerId === "string"
  );
}

/** The entry of `key` unless expired (the store leaves expiry to its callers, who own the clock). */
async function liveEntry(
  ctx: ServiceContext,
  key: string,
): Promise<{ value: unknown } | undefined> {
  const entry = await ctx.storage.kv.get([...PREFIX, key]);
  if (!entry) return undefined;
  if (entry.expiresAt !== null && entry.expiresAt <= ctx.clock.now().toISOString()) {
    return undefined;
  }
  return entry;
}

async function load(ctx: ServiceContext, key: string): Promise<StoredRefresh | undefined> {
  const entry = await liveEntry(ctx, key);
  return entry && isStored(entry.value) ? entry.value : undefined;
}

function expiry(ctx: ServiceContext, ttlMs: number): string {
  return new Date(ctx.clock.now().getTime() + ttlMs).toISOString();
}

function toRefresh(key: string, stored: StoredRefresh): AsyncRefresh {
  return { id: asyncRefreshId(key), status: stored.status, resultCount: stored.resultCount };
}

/** The refresh of `key` while it runs; undefined when none runs. */
export async function runningAsyncRefresh(
  ctx: ServiceContext,
  key: string,
): Promise<AsyncRefresh | undefined> {
  const stored = await load(ctx, key);
  return stored?.status === "running" ? toRefresh(key, stored) : undefined;
}

/**
 * Marks `key` running for `ownerId`, unless it already runs. `started` tells which: of two
 * racing requests (in any processes) exactly one starts it, and only that one enqueues the work.
 */
export async function startAsyncRefresh(
  ctx: ServiceContext,
  key: string,
  ownerId: string,
): Promise<{ refresh: AsyncRefresh; started: boolean }> {
  for (;;) {
    const current = await liveEntry(ctx, key);
    if (isStored(current?.value) && current.value.status === "running") {
      return { refresh: toRefresh(key, current.value), started: false };
    }
    const next: StoredRefresh = { status: "running", resultCount: null, ownerId };
    const written = await ctx.storage.kv.compareAndSet(
      current?.value,
      { key: [...PREFIX, key], value: next, expiresAt: expiry(ctx, RUNNING_TTL_MS) },
      ctx.clock.now().toISOString(),
    );
    if (written) return { refresh: toRefresh(key, next), started: true };
  }
}

/** Marks `key` finished with the number of results the work produced. */
export async function finishAsyncRefresh(
  ctx: ServiceContext,
  key: string,
  ownerId: string,
  resultCount: number,
): Promise<void> {
  const value: StoredRefresh = { status: "finished", resultCount, ownerId };
  await ctx.storage.kv.set({
    key: [...PREFIX, key],
    value,
    expiresAt: expiry(ctx, FINISHED_TTL_MS),
  });
}

/** GET /api/v1_alpha/async_refreshes/:id: the viewer's refresh, or 404 (as for unknown ids). */
export async function getAsyncRefresh(
  ctx: ServiceContext,
  viewerId: string,
  id: string,
): Promise<AsyncRefresh> {
  const key = keyOfId(id);
  const stored = key === null ? undefined : await load(ctx, key);
  if (key === null || !stored || stored.ownerId !== viewerId) throw notFound();
  return toRefresh(key, stored);
}
