// Each activity is acted on once. Fedify records an activity id as processed (a durable
// key–value entry, kept a day) after its listener succeeds, and skips later copies of it; what
// it cannot see is two copies running at the same time (a replay, or the shared and a personal
// inbox, queued together). This guard holds the copies of an activity being acted on: a second
// copy waits for the first and is skipped if the first succeeded, or acts itself if the first
// failed (the failed copy's retry is then skipped). Activities done recently are remembered
// too, to cover the moment between a listener's success and Fedify's record being durable.
//
// The guard lives in memory, on purpose: a durable claim cost one more fsync'd write per
// activity, and a crash left it behind, so the job's rerun after the restart found it and
// skipped an activity that was never acted on. After a crash the job runs again and acts again
// unless Fedify's record says it was done; the services that act are idempotent for the rest
// (a status, an edge, a notification per ActivityPub id). One process owns a data directory
// (ADR 3); a backend shared by several processes will need a shared claim here.

import type { ServiceContext } from "../../services/context.ts";

/** How many recently done activity ids are remembered (a few minutes at full speed). */
const REMEMBERED = 50_000;

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

function remember(guard: Guard, id: string): void {
  guard.done.add(id);
  if (guard.done.size > REMEMBERED) {
    const oldest = guard.done.values().next().value as string;
    guard.done.delete(oldest);
  }
}

/** Runs `work` unless this activity id was (or is being) handled; true when it ran. */
export async function once(
  ctx: ServiceContext,
  activityId: URL | null,
  work: () => Promise<void>,
): Promise<boolean> {
  if (activityId === null) {
    await work();
    return true;
  }
  const id = activityId.href;
  const guard = guardOf(ctx);
  for (;;) {
    if (guard.done.has(id)) return false;
    const other = guard.running.get(id);
    if (!other) break;
    // Another copy is being acted on; if it fails, this one may act (after any other waiter).
    if (await other) return false;
  }
  let failure: unknown;
  const outcome = (async () => work())()
    .then(
      () => {
        remember(guard, id);
        return true;
      },
      (error: unknown) => {
        failure = error;
        return false;
      },
    )
    .finally(() => guard.running.delete(id));
  guard.running.set(id, outcome);
  if (!(await outcome)) throw failure;
  return true;
}
