// Calls of one statement that ride together: the first goes at once (with whatever came in the
// same turn of the event loop); those that come while it is under way wait for it and go next,
// together, in one statement. Under load many callers share each round trip; a lone caller waits
// for nothing but its own statement (unlike statement-batch.ts, which waits a moment on purpose
// and answers nobody). Each caller gets its own answer, or the statement's failure.

/** Sends one statement for `args` and answers each, in order. */
export type SendTogether<A, R> = (args: A[]) => Promise<R[]>;

export function createCallsInTurn<A, R>(send: SendTogether<A, R>): (arg: A) => Promise<R> {
  let waiting: { arg: A; answer: PromiseWithResolvers<R> }[] = [];
  let sending = false;

  async function sendWaiting(): Promise<void> {
    sending = true;
    while (waiting.length > 0) {
      const calls = waiting;
      waiting = [];
      try {
        const answers = await send(calls.map((call) => call.arg));
        for (const [i, call] of calls.entries()) call.answer.resolve(answers[i] as R);
      } catch (error) {
        for (const call of calls) call.answer.reject(error);
      }
    }
    sending = false;
  }

  return (arg) => {
    const answer = Promise.withResolvers<R>();
    waiting.push({ arg, answer });
    if (!sending && waiting.length === 1) queueMicrotask(() => void sendWaiting());
    return answer.promise;
  };
}
