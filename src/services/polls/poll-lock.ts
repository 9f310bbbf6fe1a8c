// A poll's counters live on its record, so every change to it (a vote, an edit) is a
// read-modify-write: they run one at a time per poll inside this process, or two voters
// arriving together would each add to the same old count and one vote would vanish.

import { withKeyLock } from "../interactions/keyed-lock.ts";

export function withPollLock<T>(pollId: string, work: () => Promise<T>): Promise<T> {
  return withKeyLock(`poll:${pollId}`, work);
}
