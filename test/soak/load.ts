// The soak's clients: several users reading (timelines, statuses, notifications, relationships)
// as fast as they are answered, and writing (posts, favourites, follows, deletes) at a capped
// rate — the json-file backend keeps every record in memory, so an uncapped write rate would
// grow memory by design and hide a leak behind legitimate data.

import type { SeededUser } from "../helpers/wren-process.ts";

export interface Outcome {
  at: number;
  route: string;
  status: number;
  ms: number;
}

export interface LoadOptions {
  url: string;
  users: readonly SeededUser[];
  clients: number;
  writesPerSecond: number;
  until: number;
  record(outcome: Outcome): void;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** Spaces writes out across all clients: each takes the next free slot. */
function writeGate(perSecond: number) {
  let next = Date.now();
  return async () => {
    const slot = Math.max(next, Date.now());
    next = slot + 1000 / perSecond;
    const wait = slot - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  };
}

export async function runLoad(options: LoadOptions): Promise<void> {
  const { url, users, record } = options;
  const gate = writeGate(options.writesPerSecond);
  /** Recent statuses by author, newest last, kept short so deletes target real posts. */
  const recent = new Map<string, string[]>(users.map((u) => [u.id, []]));
  const allRecent = () => [...recent.values()].flat();

  const call = async (
    user: SeededUser,
    route: string,
    method: string,
    path: string,
    json?: unknown,
  ) => {
    const started = performance.now();
    let status = 0;
    let body: unknown;
    try {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${user.token}`,
          ...(json === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
      status = res.status;
      body = await res.json();
    } catch {
      // status 0: the connection failed
    }
    record({ at: Date.now(), route, status, ms: performance.now() - started });
    return { status, body };
  };

  const read = (user: SeededUser) => {
    const other = pick(users);
    const roll = Math.random();
    if (roll < 0.3) return call(user, "home", "GET", "/api/v1/timelines/home?limit=20");
    if (roll < 0.45) return call(user, "public", "GET", "/api/v1/timelines/public?limit=20");
    if (roll < 0.6) {
      return call(user, "account statuses", "GET", `/api/v1/accounts/${other.id}/statuses`);
    }
    if (roll < 0.75) {
      const id = allRecent().at(-1 - Math.floor(Math.random() * 20));
      if (id) return call(user, "status", "GET", `/api/v1/statuses/${id}`);
    }
    if (roll < 0.87) return call(user, "notifications", "GET", "/api/v1/notifications?limit=20");
    const query = users.map((u) => `id[]=${u.id}`).join("&");
    return call(user, "relationships", "GET", `/api/v1/accounts/relationships?${query}`);
  };

  const write = async (user: SeededUser) => {
    await gate();
    const mine = recent.get(user.id) as string[];
    const roll = Math.random();
    if (roll < 0.4 || allRecent().length === 0) {
      const mention = pick(users).username;
      const res = await call(user, "post", "POST", "/api/v1/statuses", {
        status: `soak ${Date.now()} @${mention} #soak`,
      });
      if (res.status === 200) mine.push((res.body as { id: string }).id);
      return;
    }
    if (roll < 0.55 && mine.length > 30) {
      const id = mine.shift() as string;
      await call(user, "delete", "DELETE", `/api/v1/statuses/${id}`);
      return;
    }
    if (roll < 0.8) {
      const id = pick(allRecent());
      const action = Math.random() < 0.6 ? "favourite" : "unfavourite";
      await call(user, action, "POST", `/api/v1/statuses/${id}/${action}`);
      return;
    }
    const target = pick(users.filter((u) => u.id !== user.id));
    const action = Math.random() < 0.5 ? "follow" : "unfollow";
    await call(user, action, "POST", `/api/v1/accounts/${target.id}/${action}`);
  };

  const client = async (n: number) => {
    const user = users[n % users.length] as SeededUser;
    // Every fourth client writes; the others read.
    const writer = n % 4 === 0;
    while (Date.now() < options.until) {
      if (writer) await write(user);
      else await read(user);
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, n) => client(n)));
}
