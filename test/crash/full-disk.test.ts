// A full, over-quota or read-only disk (issue 15, item 6): writes answer 507 with a message that
// says the server cannot store data, the server keeps serving, and writes work again as soon as
// the disk does. And every API write is all-or-nothing: the disk fills up after each possible
// number of file writes of a favourite, a delete and a vote, and each answer must match what
// was stored, in the running server and after a restart.
//
// The fault is simulated where the disk's would strike, in the durable writer (WriteFaults, a
// test-only hook): root ignores file modes and CI may not mount a small tmpfs.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CANNOT_STORE_MESSAGE } from "../../src/domain/errors.ts";
import { setupLogging, shutdownLogging } from "../../src/logging.ts";
import { WriteFaults } from "../../src/storage/json-file/index.ts";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json, post } from "../statuses/helpers.ts";

/** The most file writes any of the operations below makes; the sweep stops well before. */
const MAX_WRITES = 30;

describe("a disk that cannot store data", () => {
  const faults = new WriteFaults();
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let made = 0;
  before(async () => {
    // The operator's log as `wren serve` sets it up (text lines on stderr, errors only).
    await setupLogging({ logFormat: "text", logLevel: "error" });
    server = await startTestServer({}, { writeFaults: faults });
    [alice, bob] = await createUsers(server, "alice", "bob");
  });
  after(async () => {
    faults.clear();
    await server.close();
    await shutdownLogging();
  });

  /** Sends a request; 2xx and error answers are checked against the schemas. */
  async function attempt(
    method: string,
    path: string,
    user: TestUser,
    json?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: Json }> {
    const res = await server.request(path, {
      method,
      token: user.token,
      headers: json === undefined ? headers : { ...headers, "content-type": "application/json" },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const body: Json = await res.json();
    assertMatchesResponse(method, path, res.status, body);
    return { status: res.status, body };
  }

  /** Runs `work` while keeping what is written to stderr (the log's sink writes synchronously). */
  async function capturingStderr<T>(
    work: () => Promise<T>,
  ): Promise<{ result: T; logged: string }> {
    let logged = "";
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => {
      logged += String(chunk);
      return true;
    }) as typeof process.stderr.write;
    try {
      return { result: await work(), logged };
    } finally {
      process.stderr.write = write;
    }
  }

  for (const code of ["ENOSPC", "EDQUOT", "EROFS", "EIO", "EACCES"]) {
    it(`answers 507 on ${code}, keeps serving, and stores again once the disk is back`, async () => {
      faults.failWith(code);
      const { result: refused, logged } = await capturingStderr(() =>
        attempt("POST", "/api/v1/statuses", alice, { status: "lost?" }),
      );
      assert.equal(refused.status, 507);
      assert.deepEqual(refused.body, { error: CANNOT_STORE_MESSAGE });
      // The operator's line: the first refusal at once, then at most one a minute (so only the
      // first code of this loop logs).
      if (code === "ENOSPC") {
        assert.match(logged, /Cannot store data: the disk is full \(ENOSPC\) at \//);
        assert.match(logged, /POST \/api\/v1\/statuses .*answered 507/);
      } else {
        assert.doesNotMatch(logged, /Cannot store data/);
      }
      // Reading needs no disk space.
      await call(server, "GET", "/api/v1/timelines/home", { token: alice.token });
      faults.clear();
      const stored = await post(server, alice, { status: `after ${code}` });
      await call(server, "GET", `/api/v1/statuses/${stored.id}`, { token: alice.token });
    });
  }

  interface Operation {
    name: string;
    /** Makes a fresh target while the disk is fine; returns what `run` and `applied` need. */
    prepare(): Promise<string>;
    run(target: string): Promise<{ status: number }>;
    /** Whether the operation's effect shows through the API. */
    applied(target: string): Promise<boolean>;
  }

  const operations: Operation[] = [
    {
      name: "favourite",
      prepare: async () => (await post(server, bob, { status: "like me" })).id,
      run: (id) => attempt("POST", `/api/v1/statuses/${id}/favourite`, alice),
      applied: async (id) =>
        (await call(server, "GET", `/api/v1/statuses/${id}`, { token: alice.token })).favourited,
    },
    {
      name: "delete (of a boosted status)",
      prepare: async () => {
        const { id } = await post(server, alice, { status: "delete me" });
        await call(server, "POST", `/api/v1/statuses/${id}/reblog`, { token: bob.token });
        return id;
      },
      run: (id) => attempt("DELETE", `/api/v1/statuses/${id}`, alice),
      applied: async (id) => {
        const res = await server.request(`/api/v1/statuses/${id}`, { token: bob.token });
        await res.body?.cancel();
        return res.status === 404;
      },
    },
    {
      name: "poll vote",
      prepare: async () =>
        (
          await post(server, bob, {
            status: "Which?",
            poll: { options: ["a", "b"], expires_in: 600 },
          })
        ).poll.id,
      run: (id) => attempt("POST", `/api/v1/polls/${id}/votes`, alice, { choices: [1] }),
      applied: async (id) => {
        const poll = await call(server, "GET", `/api/v1/polls/${id}`, { token: alice.token });
        assert.equal(poll.votes_count, poll.voted ? 1 : 0, "the counts follow the vote");
        return poll.voted;
      },
    },
    {
      // Without an Idempotency-Key: the key's record is written after the status (issue 15,
      // item 1, whose fix decides where the key lives).
      name: "post (with a poll)",
      prepare: async () => `post-${++made}`,
      run: (key) =>
        attempt("POST", "/api/v1/statuses", alice, {
          status: key,
          poll: { options: ["a", "b"], expires_in: 600 },
        }),
      applied: async (key) => {
        const posted = await call(
          server,
          "GET",
          `/api/v1/accounts/${alice.account.id}/statuses?limit=40`,
          { token: alice.token },
        );
        return posted.some((status: Json) => status.content === `<p>${key}</p>`);
      },
    },
    {
      // Scheduling writes the publishing job, then the record; each its own day (25 a day).
      name: "schedule",
      prepare: async () => `schedule-${++made}`,
      run: (key) =>
        attempt("POST", "/api/v1/statuses", alice, {
          status: key,
          scheduled_at: new Date(Date.UTC(2100, 0, made)).toISOString(),
        }),
      applied: async (key) => {
        let maxId = "";
        for (;;) {
          const page = await call(
            server,
            "GET",
            `/api/v1/scheduled_statuses?limit=40${maxId ? `&max_id=${maxId}` : ""}`,
            { token: alice.token },
          );
          if (page.some((scheduled: Json) => scheduled.params.text === key)) return true;
          if (page.length < 40) return false;
          maxId = page.at(-1).id;
        }
      },
    },
    {
      name: "edit",
      prepare: async () => (await post(server, alice, { status: "first words" })).id,
      run: (id) => attempt("PUT", `/api/v1/statuses/${id}`, alice, { status: "second words" }),
      applied: async (id) =>
        (await call(server, "GET", `/api/v1/statuses/${id}`, { token: alice.token })).content ===
        "<p>second words</p>",
    },
    {
      name: "boost",
      prepare: async () => (await post(server, bob, { status: "boost me" })).id,
      run: (id) => attempt("POST", `/api/v1/statuses/${id}/reblog`, alice),
      applied: async (id) =>
        (await call(server, "GET", `/api/v1/statuses/${id}`, { token: alice.token })).reblogged,
    },
    {
      name: "unfavourite",
      prepare: async () => {
        const { id } = await post(server, bob, { status: "unlike me" });
        await call(server, "POST", `/api/v1/statuses/${id}/favourite`, { token: alice.token });
        return id;
      },
      run: (id) => attempt("POST", `/api/v1/statuses/${id}/unfavourite`, alice),
      applied: async (id) =>
        !(await call(server, "GET", `/api/v1/statuses/${id}`, { token: alice.token })).favourited,
    },
    {
      name: "follow",
      prepare: async () => (await createUsers(server, `followed${++made}`))[0].account.id,
      run: (id) => attempt("POST", `/api/v1/accounts/${id}/follow`, alice),
      applied: async (id) => {
        const [relationship] = await call(
          server,
          "GET",
          `/api/v1/accounts/relationships?id[]=${id}`,
          { token: alice.token },
        );
        return relationship.following;
      },
    },
    {
      name: "block (of a mutual follower)",
      prepare: async () => {
        const [other] = await createUsers(server, `blocked${++made}`);
        await call(server, "POST", `/api/v1/accounts/${other.account.id}/follow`, {
          token: alice.token,
        });
        await call(server, "POST", `/api/v1/accounts/${alice.account.id}/follow`, {
          token: other.token,
        });
        return other.account.id;
      },
      run: (id) => attempt("POST", `/api/v1/accounts/${id}/block`, alice),
      applied: async (id) => {
        const [relationship] = await call(
          server,
          "GET",
          `/api/v1/accounts/relationships?id[]=${id}`,
          { token: alice.token },
        );
        // Fail-safe rather than all-or-nothing (ADR 10): the follows end before the block is
        // stored, so a 507 may leave them ended, never a block beside a live follow (which
        // would still deliver followers-only posts to the blocked account).
        if (relationship.blocking) {
          assert.deepEqual([relationship.following, relationship.followed_by], [false, false]);
        }
        return relationship.blocking;
      },
    },
  ];

  // The fsync of a directory fails after the renames in it: the files are what readers see, so
  // answering 507 would leave a refused write applied (and the server's memory without it).
  it("every write is stored and acknowledged when directory fsyncs fail after the renames", async () => {
    const targets: { operation: Operation; target: string }[] = [];
    for (const operation of operations) {
      const target = await operation.prepare();
      const refusedBefore = faults.refused;
      faults.failDirSyncWith("EIO");
      const { result, logged } = await capturingStderr(() => operation.run(target));
      faults.clear();
      assert.ok(faults.refused > refusedBefore, `${operation.name}: the fault struck`);
      assert.ok(result.status >= 200 && result.status < 300, `${operation.name}: ${result.status}`);
      assert.match(logged, /Could not fsync directory .*may not survive a power cut/);
      assert.ok(await operation.applied(target), `${operation.name}: applied`);
      targets.push({ operation, target });
    }
    await server.restart();
    for (const { operation, target } of targets) {
      assert.ok(await operation.applied(target), `${operation.name}: applied after a restart`);
    }
  });

  // A full disk still lets files be removed; a read-only one refuses that too.
  for (const code of ["ENOSPC", "EROFS"]) {
    for (const operation of operations) {
      it(`${operation.name}: stored exactly when answered 2xx, wherever ${code} strikes`, async () => {
        const outcomes: { target: string; stored: boolean }[] = [];
        for (let writes = 0; writes <= MAX_WRITES; writes++) {
          const target = await operation.prepare();
          const refusedBefore = faults.refused;
          faults.failWith(code, { after: writes });
          const { status } = await operation.run(target);
          faults.clear();
          const struck = faults.refused > refusedBefore;
          assert.ok(
            (status >= 200 && status < 300) || status === 507,
            `after ${writes} writes: answered ${status}`,
          );
          const stored = status !== 507;
          assert.equal(
            await operation.applied(target),
            stored,
            `after ${writes} writes the disk failed: answered ${status}`,
          );
          outcomes.push({ target, stored });
          if (!struck) break;
          assert.ok(writes < MAX_WRITES, "the fault kept striking: the sweep found no end");
        }
        if (code === "EROFS")
          assert.ok(
            outcomes.some((o) => !o.stored),
            "the fault never struck",
          );
        // What the files hold after a restart agrees with what each answer said.
        await server.restart();
        for (const { target, stored } of outcomes) {
          assert.equal(await operation.applied(target), stored, `after a restart: ${target}`);
        }
      });
    }
  }
});
