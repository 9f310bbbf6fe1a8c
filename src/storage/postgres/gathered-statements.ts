// Calls gathered while a statement is under way (ADR 0057): the calls of one group asked while
// that group's statement runs wait for it and go together in the next one, each answered from
// what it returned; a lone call goes at once, so nothing waits on a timer. A failed statement
// fails each of its calls (they are not tried again here).
//
// Used for the job store's writes that every inbox activity makes: its enqueue (JobStore.put, on
// the accept path: the 202 waits for it, as before, and many deliveries at once share an insert)
// and its removal once run (JobStore.complete, per runner). Neither changes what is durable
// when: a put answers once its row is committed, a job stays a leased row until its removal's
// statement commits.

/** Sends one statement for `items` of `group`; answers one result per item, in order. */
export type SendGathered<I, R> = (group: string, items: I[]) => Promise<R[]>;

interface Waiting<I, R> {
  item: I;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export interface GatheredOptions {
  /** The most calls one statement takes; the others go in the next (default: no bound). */
  most?: number;
}

export function gathered<I, R>(
  send: SendGathered<I, R>,
  { most = Number.POSITIVE_INFINITY }: GatheredOptions = {},
): (group: string, item: I) => Promise<R> {
  /** Per group: the calls waiting for the next statement (the group is sending while listed). */
  const groups = new Map<string, Waiting<I, R>[]>();

  async function sendAll(group: string): Promise<void> {
    for (;;) {
      const waiting = groups.get(group) ?? [];
      if (waiting.length === 0) break;
      const batch = waiting.splice(0, most);
      try {
        const results = await send(
          group,
          batch.map((w) => w.item),
        );
        for (const [i, w] of batch.entries()) w.resolve(results[i] as R);
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    groups.delete(group);
  }

  return (group, item) =>
    new Promise<R>((resolve, reject) => {
      const waiting = groups.get(group);
      if (waiting) {
        waiting.push({ item, resolve, reject });
        return;
      }
      groups.set(group, [{ item, resolve, reject }]);
      void sendAll(group);
    });
}
