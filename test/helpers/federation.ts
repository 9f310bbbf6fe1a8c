// Several real Wren instances in one test process, federating over HTTPS on loopback: each has
// its own port, data directory and public URL `https://127.0.0.1:<port>` (peers look up acct:
// handles over HTTPS only), served with the committed test certificate that this process trusts.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Clock } from "../../src/domain/clock.ts";
import type { Job } from "../../src/domain/job.ts";
import { call, type Json } from "../graph/helpers.ts";
import { createUserWithToken, type TestUser } from "./accounts.ts";
import { freePort, startTestServer, type TestServer } from "./server.ts";
import { TEST_TLS_ENV, trustTestCa } from "./tls.ts";

export interface Instance extends TestServer {
  port: number;
  /** The host of its accounts' handles and of its ActivityPub ids: `127.0.0.1:<port>`. */
  domain: string;
}

export interface FederationOptions {
  /** The clock of each instance by position (a manual one for retry tests); default: the system's. */
  clocks?: readonly (Clock | undefined)[];
  /** More environment for every instance. */
  env?: Record<string, string>;
}

export interface TestFederation {
  instances: Instance[];
  /** Stops every instance and removes their data directories. */
  close(): Promise<void>;
}

/** Starts `n` instances; stopping and starting one again keeps its port and data directory. */
export async function startFederation(
  n: number,
  options: FederationOptions = {},
): Promise<TestFederation> {
  trustTestCa();
  const dataDirs: string[] = [];
  const instances: Instance[] = [];
  const close = async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  };
  try {
    for (let i = 0; i < n; i++) {
      const dataDir = await mkdtemp(join(tmpdir(), `wren-fed-${i}-`));
      dataDirs.push(dataDir);
      const port = await freePort();
      const clock = options.clocks?.[i];
      const server = await startTestServer(
        {
          ...TEST_TLS_ENV,
          WREN_PUBLIC_URL: `https://127.0.0.1:${port}`,
          WREN_ALLOW_PRIVATE_ADDRESSES: "true",
          // Several instances and their deliveries share one client address.
          WREN_RATE_LIMIT_REQUESTS: "100000",
          ...options.env,
        },
        { dataDir, port, ...(clock ? { clock } : {}) },
      );
      instances.push(Object.assign(server, { port, domain: `127.0.0.1:${port}` }));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { instances, close };
}

/** `username@127.0.0.1:<port>`, the handle people type to find a user of `instance`. */
export function handle(instance: Instance, username: string): string {
  return `${username}@${instance.domain}`;
}

/** A local account of `instance` with a token (read write follow). */
export function user(instance: Instance, username: string): Promise<TestUser> {
  return createUserWithToken(instance, username);
}

export interface EventuallyOptions {
  /** Give up after this long (default 15 s): a bound, not an expectation. */
  timeout?: number;
  interval?: number;
}

/**
 * Retries `check` until it stops throwing and returns its result; deliveries between instances
 * happen in background jobs, so their effects are awaited this way. After `timeout`, the last
 * assertion error is thrown.
 */
export async function eventually<T>(
  check: () => Promise<T> | T,
  options: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeout ?? 15_000);
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, options.interval ?? 100));
  }
}

/** A client API call on `instance` that must answer 2xx; returns the JSON body. */
export async function api(
  instance: Instance,
  token: string,
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  path: string,
  body?: Record<string, unknown>,
): Promise<Json> {
  const answer = await call(instance, method, path, token, body);
  assert.ok(
    answer.status >= 200 && answer.status < 300,
    `${method} ${path} on ${instance.domain}: ${answer.status} ${JSON.stringify(answer.body)}`,
  );
  return answer.body;
}

/**
 * The account `who` (a handle) as `instance` knows it, found as a client does it:
 * `GET /api/v2/search?q=@user@host&resolve=true`.
 */
export async function resolveAccount(
  instance: Instance,
  token: string,
  who: string,
): Promise<Json> {
  const q = encodeURIComponent(`@${who}`);
  const found = await api(
    instance,
    token,
    "GET",
    `/api/v2/search?q=${q}&resolve=true&type=accounts`,
  );
  const account = found.accounts.find((a: Json) => a.acct === who);
  assert.ok(account, `${who} not found from ${instance.domain}: ${JSON.stringify(found)}`);
  return account;
}

/** The status at `url` (its ActivityPub id or web URL) as `instance` knows it, resolved by search. */
export async function resolveStatus(instance: Instance, token: string, url: string): Promise<Json> {
  const q = encodeURIComponent(url);
  const found = await api(
    instance,
    token,
    "GET",
    `/api/v2/search?q=${q}&resolve=true&type=statuses`,
  );
  const status = found.statuses.find((s: Json) => s.uri === url || s.url === url);
  assert.ok(status, `${url} not found from ${instance.domain}: ${JSON.stringify(found)}`);
  return status;
}

/** The relationship of the token's owner to account `id` on `instance`. */
export async function relationship(instance: Instance, token: string, id: string): Promise<Json> {
  const [rel] = await api(instance, token, "GET", `/api/v1/accounts/relationships?id[]=${id}`);
  return rel;
}

/**
 * `follower` (of `from`) follows `followee` (a user of another instance), resolved by handle, and
 * waits until the follow is accepted; returns the followee's account as `from` knows it.
 */
export async function followRemote(
  from: Instance,
  follower: TestUser,
  to: Instance,
  followee: TestUser,
): Promise<Json> {
  const remote = await resolveAccount(from, follower.token, handle(to, followee.account.username));
  await api(from, follower.token, "POST", `/api/v1/accounts/${remote.id}/follow`);
  await eventually(async () => {
    assert.equal((await relationship(from, follower.token, remote.id)).following, true);
  });
  return remote;
}

/** The status with ActivityPub id `uri` in the home timeline of the token's owner on `instance`. */
export async function inHomeTimeline(
  instance: Instance,
  token: string,
  uri: string,
): Promise<Json> {
  const home = await api(instance, token, "GET", "/api/v1/timelines/home?limit=40");
  const status = home.find((s: Json) => s.uri === uri);
  assert.ok(status, `${uri} is not in the home timeline on ${instance.domain}`);
  return status;
}

/** Far enough ahead to list every waiting job. */
const END_OF_TIME = "9999-12-31T23:59:59.999Z";

/** A delivery waiting in an instance's job queue: a Fedify outbox message, due or not. */
export interface QueuedDelivery {
  job: Job;
  inbox: URL;
  /** Failed attempts so far (0: not tried yet). */
  attempt: number;
}

/** The deliveries waiting in `instance`'s job queue (first tries, retries and held ones). */
export async function queuedDeliveries(instance: TestServer): Promise<QueuedDelivery[]> {
  const jobs = await instance.wren.ctx.storage.jobs.due(END_OF_TIME, 1000);
  return jobs.flatMap((job) => {
    const message = job.payload.message as { type?: string; inbox?: string; attempt?: number };
    if (job.type !== "federation.task" || message?.type !== "outbox") return [];
    return [{ job, inbox: new URL(message.inbox ?? ""), attempt: message.attempt ?? 0 }];
  });
}

/** The state of `server`'s circuit breaker for `host`, as Fedify stored it (undefined: closed). */
export async function circuitState(server: TestServer, host: string): Promise<string | undefined> {
  const entry = await server.wren.ctx.storage.kv.get(["_fedify", "circuit", host]);
  return (entry?.value as { state?: string } | undefined)?.state;
}

export interface AliceAndBob {
  federation: TestFederation;
  a: Instance;
  b: Instance;
  /** A user of `a`. */
  alice: TestUser;
  /** A user of `b`. */
  bob: TestUser;
}

/** The usual cast of the two-server tests: two instances, alice on A and bob on B. */
export async function startAliceAndBob(options: FederationOptions = {}): Promise<AliceAndBob> {
  const federation = await startFederation(2, options);
  const [a, b] = federation.instances as [Instance, Instance];
  try {
    const alice = await user(a, "alice");
    const bob = await user(b, "bob");
    return { federation, a, b, alice, bob };
  } catch (error) {
    await federation.close();
    throw error;
  }
}
