// JobStore.complete on PostgreSQL, gathered (ADR 0057): every job a runner finishes was removed
// by a statement of its own (`delete … where id = … and lease_owner = …`), one per inbox activity
// and per delivery. Completions asked while one statement is under way wait for it and go
// together in the next one (`id = any(…)`), each answered from the ids it returned; a lone one
// goes at once, so nothing waits on a timer. Crash safety is unchanged: until its statement
// commits, a job is a leased row that runs again once the lease passes, as before.

/** Sends one statement for `ids` of `owner`; answers the ids it removed. */
export type RemoveOwned = (owner: string, ids: string[]) => Promise<ReadonlySet<string>>;

interface Waiting {
  id: string;
  resolve(removed: boolean): void;
  reject(error: unknown): void;
}

export function gatheredCompletions(
  remove: RemoveOwned,
): (id: string, owner: string) => Promise<boolean> {
  /** Per owner (a runner; one per process as a rule): those waiting, and whether one is sent. */
  const owners = new Map<string, { waiting: Waiting[]; sending: boolean }>();

  async function send(owner: string): Promise<void> {
    const state = owners.get(owner);
    if (!state) return;
    state.sending = true;
    while (state.waiting.length > 0) {
      const batch = state.waiting;
      state.waiting = [];
      try {
        const removed = await remove(
          owner,
          batch.map((w) => w.id),
        );
        for (const w of batch) w.resolve(removed.has(w.id));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    owners.delete(owner);
  }

  return (id, owner) =>
    new Promise<boolean>((resolve, reject) => {
      let state = owners.get(owner);
      if (!state) {
        state = { waiting: [], sending: false };
        owners.set(owner, state);
      }
      state.waiting.push({ id, resolve, reject });
      if (!state.sending) void send(owner);
    });
}
