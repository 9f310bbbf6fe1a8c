// Each activity is acted on once. An activity is its id *and* its body (activity-key.ts): a
// peer that reuses an id for a new activity (Hollo's Accepts and poll Updates) is heard every
// time, while copies of one delivery (a replay, the shared and a personal inbox, a retry of a
// delivery we answered) count once.
//
// Two layers. A durable record (Wren's key–value store, kept a day, as Fedify kept its own
// per-id record, which kv.ts now turns off because it keyed on the id alone) is written after
// the listener succeeds and skips later copies, across restarts. In memory, this guard holds
// the copies of an activity being acted on: a second copy waits for the first and is skipped
// if the first succeeded, or acts itself if the first failed (the failed copy's retry is then
// skipped). Activities done recently are remembered in memory too, to spare a read.
//
// The record is written after the work, never claimed before it: a claim left behind by a
// crash would make the job's rerun skip an activity that was never acted on. One process owns
// a json-file data directory (ADR 3), so the in-memory guard is the whole story there; with a
// storage shared by several processes, copies running at the same moment in two of them are
// serialised by the storage (Coordination.runOnce: on PostgreSQL the record's row is the lock
// while the work runs, ADR 0057), so the later copy finds the record (or acts itself if the
// first failed), as in one process.

import type { ServiceContext } from "../../services/context.ts";
import type { Coordination } from "../../storage/ports.ts";
import type { ActivityKey } from "./activity-key.ts";

/** How many recently done activities are remembered in memory (a few minutes at full speed). */
const REMEMBERED = 50_000;

/** How long the durable record of a done activity is kept (peers retry for about two days). */
export const DONE_TTL_MS = 24 * 60 * 60 * 1000;

interface Guard {
  running: Map<string, Promise<boolean>>;
  /** Insertion-ordered: the oldest is forgotten first. */
  done: Set<string>;
}

// One guard per storage: tests run several instances in one process.
const guards = new WeakMap<object, Guard>();

function guardOf(ctx: ServiceContext): Guard {
  let guard = guards.get(ctx.storage);
  if (!guard) {
    guard = { running: new Map(), done: new Set() };
    guards.set(ctx.storage, guard);
  }
  return guard;
}

function remember(guard: Guard, key: string): void {
  guard.done.add(key);
  if (guard.done.size > REMEMBERED) {
    const oldest = guard.done.values().next().value as string;
    guard.done.delete(oldest);
  }
}

const guardId = (key: ActivityKey) => `${key.id}\n${key.digest}`;

const recordKey = (key: ActivityKey) => ["wren", "inboxDone", key.id, key.digest];

async function recorded(ctx: ServiceContext, key: ActivityKey): Promise<boolean> {
  const entry = await ctx.storage.kv.get(recordKey(key));
  return (
    entry !== undefined &&
    (entry.expiresAt === null || Date.parse(entry.expiresAt) > ctx.clock.now().getTime())
  );
}

async function record(ctx: ServiceContext, key: ActivityKey): Promise<void> {
  const expiresAt = new Date(ctx.clock.now().getTime() + DONE_TTL_MS).toISOString();
  await ctx.storage.kv.set({ key: recordKey(key), value: true, expiresAt });
}

/**
 * Where processes share the storage: the record's check, the lock against copies in other
 * processes and the record itself in the storage's two steps (Coordination.runOnce, ADR 0057).
 */
function runOnceShared(
  ctx: ServiceContext,
  runOnce: NonNullable<Coordination["runOnce"]>,
  key: ActivityKey,
  work: () => Promise<void>,
): Promise<boolean> {
  const now = ctx.clock.now().getTime();
  return runOnce(
    recordKey(key),
    new Date(now).toISOString(),
    new Date(now + DONE_TTL_MS).toISOString(),
    work,
  );
}

/**
 * Whether this process knows the activity was handled (remembered, or a copy of it being acted
 * on now): once() will then not run it, so reads ahead of its work are not worth starting.
 */
export function handledHere(ctx: ServiceContext, key: ActivityKey | null): boolean {
  if (key === null) return false;
  const id = guardId(key);
  const guard = guardOf(ctx);
  return guard.done.has(id) || guard.running.has(id);
}

/** Runs `work` unless this activity was (or is being) handled; true when it ran. */
export async function once(
  ctx: ServiceContext,
  key: ActivityKey | null,
  work: () => Promise<void>,
): Promise<boolean> {
  if (key === null) {
    await work();
    return true;
  }
  const id = guardId(key);
  const guard = guardOf(ctx);
  for (;;) {
    if (guard.done.has(id)) return false;
    const other = guard.running.get(id);
    if (!other) break;
    // Another copy is being acted on; if it fails, this one may act (after any other waiter).
    if (await other) return false;
  }
  let failure: unknown;
  const act = async () => {
    if (await recorded(ctx, key)) return false;
    await work();
    await record(ctx, key);
    return true;
  };
  const { coordination } = ctx.storage;
  const outcome = (
    coordination.runOnce
      ? runOnceShared(ctx, coordination.runOnce, key, work)
      : coordination.exclusive
        ? act()
        : coordination.withLock(`inbox:${id}`, act)
  )
    .then(
      (acted) => {
        remember(guard, id);
        return acted;
      },
      (error: unknown) => {
        failure = error;
        return false;
      },
    )
    .finally(() => guard.running.delete(id));
  guard.running.set(id, outcome);
  const acted = await outcome;
  if (!acted && failure !== undefined) throw failure;
  return acted;
}
