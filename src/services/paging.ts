// Every item of a newest-first, id-paged list (edges, an account's statuses), batch by batch,
// for the use cases that act on all of them (notifying followers, a Move, an actor's deletion).

import type { IdPage } from "../storage/ports.ts";

const BATCH = 200;

export async function* walkPages<E extends { id: string }>(
  list: (page: IdPage) => Promise<E[]>,
): AsyncGenerator<E> {
  let maxId: string | undefined;
  for (;;) {
    const batch = await list({ limit: BATCH, maxId });
    yield* batch;
    if (batch.length < BATCH) return;
    maxId = batch.at(-1)?.id;
  }
}

/** The first item of a paged list that matches, or undefined. */
export async function findInPages<E extends { id: string }>(
  list: (page: IdPage) => Promise<E[]>,
  match: (item: E) => boolean,
): Promise<E | undefined> {
  for await (const item of walkPages(list)) if (match(item)) return item;
  return undefined;
}

/** Every item of a paged list, collected (for work that changes the list as it goes). */
export async function collectPages<E extends { id: string }>(
  list: (page: IdPage) => Promise<E[]>,
): Promise<E[]> {
  const items: E[] = [];
  for await (const item of walkPages(list)) items.push(item);
  return items;
}
