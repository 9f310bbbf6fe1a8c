// One damaged file out of many costs that record only. Each case starts a real `wren serve` on a
// damaged copy of one data directory (two users, their posts, a clean shutdown's snapshot) and
// checks: the server starts, every page that held the record answers 200 without it, the
// record's own URL answers 404, the file sits untouched in quarantine/, and a log line names it.

import assert from "node:assert/strict";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { freePort } from "../helpers/server.ts";
import { spawnWren, type WrenProcess } from "../helpers/wren-process.ts";
import { makeTemplate, type Template } from "./template.ts";

/** A copy of the template (modes kept), damaged by `damage`, served by a real process. */
async function serveDamaged(
  template: Template,
  damage: (dir: string) => Promise<void>,
): Promise<{
  dir: string;
  wren: WrenProcess;
  get: (path: string, init?: RequestInit) => Promise<Response>;
}> {
  const dir = await mkdtemp(join(tmpdir(), "wren-corruption-"));
  await cp(template.dir, dir, { recursive: true });
  await damage(dir);
  const wren = await spawnWren(dir, await freePort());
  const get = (path: string, init: RequestInit = {}) => fetch(`${wren.url}${path}`, init);
  return { dir, wren, get };
}

async function ids(res: Response): Promise<string[]> {
  assert.equal(res.status, 200, `${res.url}: ${res.status}`);
  return ((await res.json()) as { id: string }[]).map((s) => s.id);
}

/** The one file under quarantine/<folder>, which must hold exactly `content`. */
async function assertQuarantined(dir: string, folder: string[], name: string, content: Buffer) {
  const aside = join(dir, "quarantine", ...folder);
  const moved = await readdir(aside);
  assert.equal(moved.length, 1, `one file in ${aside}: ${moved.join(", ")}`);
  assert.ok(moved[0]?.startsWith(`${name}.`), moved[0]);
  assert.deepEqual(await readFile(join(aside, moved[0] as string)), content);
  await assert.rejects(readFile(join(dir, ...folder, name)), { code: "ENOENT" });
}

describe("a damaged record file costs that record only", { timeout: 240_000 }, () => {
  let template: Template;
  const cleanup: (() => Promise<unknown>)[] = [];
  before(async () => {
    template = await makeTemplate();
    cleanup.push(() => rm(template.dir, { recursive: true, force: true }));
  });
  after(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  for (const snapshot of [true, false]) {
    it(`a status file truncated in place (${snapshot ? "with" : "without"} a snapshot)`, async () => {
      const [first, middle, last] = template.alicePosts as [string, string, string];
      const file = join("statuses", template.alice.id, `${middle}.json`);
      let damaged = Buffer.alloc(0);
      const { dir, wren, get } = await serveDamaged(template, async (d) => {
        if (!snapshot) await rm(join(d, "statuses.snapshot"));
        else await readFile(join(d, "statuses.snapshot")); // the template has one
        await truncate(join(d, file), 40);
        damaged = await readFile(join(d, file));
      });
      cleanup.push(() => rm(dir, { recursive: true, force: true }));
      try {
        const auth = { headers: { authorization: `Bearer ${template.alice.token}` } };
        assert.deepEqual(await ids(await get("/api/v1/timelines/public")), [
          template.bobPost,
          last,
          first,
        ]);
        assert.deepEqual(await ids(await get("/api/v1/timelines/home", auth)), [last, first]);
        assert.deepEqual(await ids(await get(`/api/v1/accounts/${template.alice.id}/statuses`)), [
          last,
          first,
        ]);
        const profile = await get("/@alice");
        assert.equal(profile.status, 200);
        assert.ok(!(await profile.text()).includes("second"));
        assert.equal((await get(`/api/v1/statuses/${middle}`)).status, 404);
        assert.equal((await get(`/@alice/${middle}`)).status, 404);
        const object = await get(`/users/alice/statuses/${middle}`, {
          headers: { accept: "application/activity+json" },
        });
        assert.equal(object.status, 404);
        assert.equal((await get(`/api/v1/statuses/${last}`)).status, 200);
        await assertQuarantined(dir, ["statuses", template.alice.id], `${middle}.json`, damaged);
        assert.ok(wren.stderr().includes(join(dir, file)), wren.stderr());
      } finally {
        await wren.kill("SIGTERM");
      }
    });
  }

  it("a corrupt account file", async () => {
    const file = join("accounts", `${template.bob.id}.json`);
    const damaged = Buffer.from('{\n  "id": "1",\n  "username": "bo');
    const { dir, wren, get } = await serveDamaged(template, (d) =>
      writeFile(join(d, file), damaged),
    );
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    try {
      assert.equal((await get(`/api/v1/accounts/${template.bob.id}`)).status, 404);
      assert.equal((await get("/@bob")).status, 404);
      // bob's post has no author to show: left out, like any status whose author is gone.
      assert.deepEqual(
        await ids(await get("/api/v1/timelines/public")),
        [...template.alicePosts].reverse(),
      );
      assert.equal((await get(`/api/v1/accounts/${template.alice.id}`)).status, 200);
      await assertQuarantined(dir, ["accounts"], `${template.bob.id}.json`, damaged);
      assert.ok(wren.stderr().includes(join(dir, file)), wren.stderr());
    } finally {
      await wren.kill("SIGTERM");
    }
  });

  it("a stray copy-<id>.json beside the account files", async () => {
    let copy = Buffer.alloc(0);
    const { dir, wren, get } = await serveDamaged(template, async (d) => {
      // A whole, valid copy: refused all the same, its content belongs in <id>.json.
      copy = await readFile(join(d, "accounts", `${template.alice.id}.json`));
      await writeFile(join(d, "accounts", `copy-${template.alice.id}.json`), copy);
    });
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    try {
      assert.equal((await get(`/api/v1/accounts/${template.alice.id}`)).status, 200);
      assert.equal((await get("/@alice")).status, 200);
      await assertQuarantined(dir, ["accounts"], `copy-${template.alice.id}.json`, copy);
      assert.ok(wren.stderr().includes(`copy-${template.alice.id}.json`), wren.stderr());
    } finally {
      await wren.kill("SIGTERM");
    }
  });

  it("junk bytes in a key-value file", async () => {
    const name = `${"ab".repeat(32)}.json`;
    const junk = Buffer.from([0x00, 0xff, 0x7b, 0x22, 0xc3, 0x28]);
    const { dir, wren, get } = await serveDamaged(template, async (d) => {
      await mkdir(join(d, "kv"), { recursive: true });
      await writeFile(join(d, "kv", name), junk);
    });
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    try {
      assert.equal((await get("/api/v1/timelines/public")).status, 200);
      await assertQuarantined(dir, ["kv"], name, junk);
      assert.ok(wren.stderr().includes(join(dir, "kv", name)), wren.stderr());
    } finally {
      await wren.kill("SIGTERM");
    }
  });
});
