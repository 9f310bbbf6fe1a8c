// The settings pages over real HTTP, signed in through the web session: aliases (add, remove,
// an unknown account refused), migration (the CLI's checks and the password), CSV import
// (uploaded, followed to the end, failures listed; over the size cap 413), CSV export, and the
// account archive: requested on the page, built by the job, downloaded by its owner only and
// unzipped here (actor.json, outbox.json with the post and its media file, likes, bookmarks),
// then pruned with finished import records once expired.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { IMPORT_FILE_BYTES } from "../../src/domain/csv-import.ts";
import { archivesOf } from "../../src/services/archives/archive-records.ts";
import { importsOf } from "../../src/services/imports/import-records.ts";
import { pruneExpiredKv } from "../../src/services/maintenance/kv-prune.ts";
import { addAlias } from "../../src/services/moves/aliases.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { solidPng } from "../helpers/images.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { Browser, PASSWORD, parseForm, UNTHROTTLED_LOGINS } from "../oauth/helpers.ts";

const run = promisify(execFile);

/** The archive's JSON documents, read loosely for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: test reads of arbitrary JSON-LD
type Json = Record<string, any>;

async function until<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await sleep(50);
  }
  throw new Error("gave up waiting");
}

describe("the settings pages", () => {
  let server: TestServer;
  let offset = 0;
  let alice: TestUser;
  let bob: TestUser;
  let browser: Browser;
  let domain: string;

  async function signedIn(username: string): Promise<Browser> {
    const b = new Browser(server);
    const form = parseForm(await (await b.get("/auth/sign_in")).text());
    const res = await b.postForm("/auth/sign_in", {
      ...form.fields,
      login: username,
      password: PASSWORD,
    });
    assert.equal(res.status, 303);
    return b;
  }

  /** Posts a page's form (its CSRF token added) with `fields`. */
  async function submit(b: Browser, page: string, action: string, fields: Record<string, string>) {
    const html = await (await b.get(page)).text();
    const token = /name="authenticity_token" value="([^"]+)"/.exec(html)?.[1] as string;
    return b.postForm(action, { authenticity_token: token, ...fields });
  }

  before(async () => {
    server = await startTestServer(UNTHROTTLED_LOGINS, {
      clock: { now: () => new Date(Date.now() + offset) },
    });
    domain = new URL(server.url).host;
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
    browser = await signedIn("alice");
  });
  after(() => server?.close());

  it("adds and removes aliases, and shows why one cannot be added", async () => {
    const added = await submit(browser, "/settings/aliases", "/settings/aliases", {
      alias: `bob@${domain}`,
    });
    assert.equal(added.status, 200);
    const html = await added.text();
    assert.match(html, /Added bob@[^ ]+ as an alias/);
    assert.ok(html.includes(`<code>${bob.account.uri}</code>`));
    const unknown = await submit(browser, "/settings/aliases", "/settings/aliases", {
      alias: `nobody@${domain}`,
    });
    assert.equal(unknown.status, 422);
    assert.match(await unknown.text(), /role="alert">Cannot find the account nobody@/);
    const removed = await submit(browser, "/settings/aliases", "/settings/aliases/remove", {
      alias: bob.account.uri,
    });
    assert.equal(removed.status, 200);
    assert.doesNotMatch(await removed.text(), /<code>http/);
  });

  it("moves an account with the CLI's checks, after the password", async () => {
    const carol = await createUserWithToken(server, "carol");
    const dave = await createUserWithToken(server, "dave");
    const b = await signedIn("carol");
    const wrong = await submit(b, "/settings/migration", "/settings/migration", {
      acct: `dave@${domain}`,
      current_password: "nope",
    });
    assert.equal(wrong.status, 422);
    assert.match(await wrong.text(), /The password is not correct/);
    const unlisted = await submit(b, "/settings/migration", "/settings/migration", {
      acct: `dave@${domain}`,
      current_password: PASSWORD,
    });
    assert.equal(unlisted.status, 422);
    assert.match(await unlisted.text(), /does not list .* among its aliases/);
    await addAlias(server.wren.ctx, "dave", carol.account.uri);
    const moved = await submit(b, "/settings/migration", "/settings/migration", {
      acct: `dave@${domain}`,
      current_password: PASSWORD,
    });
    assert.equal(moved.status, 200);
    assert.match(await moved.text(), /This account has moved to <code>/);
    const stored = await server.wren.ctx.storage.accounts.get(carol.account.id);
    assert.equal(stored?.movedTo, dave.account.uri);
  });

  it("imports an uploaded CSV, shows its progress and failures, and caps the file size", async () => {
    const html = await (await browser.get("/settings/import")).text();
    const token = /name="authenticity_token" value="([^"]+)"/.exec(html)?.[1] as string;
    const upload = (type: string, text: string) => {
      const form = new FormData();
      form.set("authenticity_token", token);
      form.set("type", type);
      form.set("mode", "merge");
      form.set("data", new File([text], "following_accounts.csv", { type: "text/csv" }));
      return browser.postMultipart("/settings/import", form);
    };
    const csv = `Account address,Show boosts,Notify on new posts,Languages\nbob@${domain},true,false,\nghost@${domain},true,false,\n`;
    const started = await upload("following", csv);
    assert.equal(started.status, 200);
    assert.match(await started.text(), /The file is being imported: 2 rows/);
    await until(async () => {
      const [record] = await importsOf(server.wren.ctx, alice.account.id);
      return record?.finishedAt ? record : undefined;
    });
    const page = await (await browser.get("/settings/import")).text();
    assert.match(page, /2 of 2 rows processed, 1 failed, finished/);
    assert.match(page, /Row 2: <code>ghost@[^<]+<\/code> – Cannot find the account/);
    assert.ok(await server.wren.ctx.storage.follows.get(alice.account.id, bob.account.id));

    const wrongKind = await upload("domain-blocks", csv);
    assert.equal(wrongKind.status, 422);
    assert.match(await wrongKind.text(), /role="alert">/);
    const big = await upload("blocks", `bob@${domain}\n`.repeat(IMPORT_FILE_BYTES / 10));
    assert.equal(big.status, 413);
    assert.match(await big.text(), /The file is larger than 384 KiB/);
  });

  it("downloads each CSV export", async () => {
    const res = await browser.get("/settings/export/following.csv");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/csv/);
    assert.match(
      res.headers.get("content-disposition") ?? "",
      /attachment; filename="following.csv"/,
    );
    assert.equal(
      await res.text(),
      `Account address,Show boosts,Notify on new posts,Languages\nbob@${domain},true,false,\n`,
    );
    assert.equal((await browser.get("/settings/export/statuses.csv")).status, 404);
    const page = await (await browser.get("/settings/export")).text();
    for (const type of ["following", "lists", "blocks", "mutes", "domain-blocks", "bookmarks"]) {
      assert.ok(page.includes(`href="/settings/export/${type}.csv"`), type);
    }
  });

  it("builds the archive on request; only its owner downloads it; it expires", async () => {
    const api = (path: string, init: RequestInit = {}) =>
      server.request(path, { ...init, token: alice.token });
    // A post with an image, a like and a bookmark of bob's post, an avatar.
    const form = new FormData();
    form.set("file", new File([await solidPng(32, 32)], "a.png", { type: "image/png" }));
    const media = (await (await api("/api/v2/media", { method: "POST", body: form })).json()) as {
      id: string;
    };
    const avatar = new FormData();
    avatar.set("avatar", new File([await solidPng(40, 40)], "me.png", { type: "image/png" }));
    await api("/api/v1/accounts/update_credentials", { method: "PATCH", body: avatar });
    const post = await (
      await api("/api/v1/statuses", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ status: "Hello from the archive", media_ids: [media.id] }),
      })
    ).json();
    const bobs = (await (
      await server.request("/api/v1/statuses", {
        method: "POST",
        token: bob.token,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ status: "Bob's post" }),
      })
    ).json()) as { id: string; uri: string };
    await api(`/api/v1/statuses/${bobs.id}/favourite`, { method: "POST" });
    await api(`/api/v1/statuses/${bobs.id}/bookmark`, { method: "POST" });

    const requested = await submit(browser, "/settings/export", "/settings/export/archive", {});
    assert.equal(requested.status, 200);
    assert.match(await requested.text(), /Your archive is being prepared/);
    const archive = await until(async () => {
      const [a] = await archivesOf(server.wren.ctx, alice.account.id);
      return a?.state === "ready" ? a : undefined;
    });
    assert.equal(archive.done, archive.total);
    const page = await (await browser.get("/settings/export")).text();
    assert.ok(page.includes(`href="/settings/export/archive/${archive.id}"`));
    const again = await submit(browser, "/settings/export", "/settings/export/archive", {});
    assert.equal(again.status, 429);
    assert.match(await again.text(), /once every six days/);

    const bobBrowser = await signedIn("bob");
    assert.equal((await bobBrowser.get(`/settings/export/archive/${archive.id}`)).status, 404);
    const download = await browser.get(`/settings/export/archive/${archive.id}`);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get("content-type"), "application/zip");
    const dir = await mkdtemp(join(tmpdir(), "wren-archive-"));
    try {
      await writeFile(join(dir, "a.zip"), Buffer.from(await download.arrayBuffer()));
      await run("unzip", ["-q", join(dir, "a.zip"), "-d", join(dir, "out")]);
      const read = async (name: string) =>
        JSON.parse(await readFile(join(dir, "out", name), "utf8")) as Json;
      const actor = await read("actor.json");
      assert.equal(actor.id, alice.account.uri);
      assert.equal(actor.type, "Person");
      assert.equal(actor.outbox, "outbox.json");
      assert.equal(actor.icon.url, "avatar.png");
      assert.ok((await readFile(join(dir, "out", "avatar.png"))).length > 0);
      const outbox = await read("outbox.json");
      assert.equal(outbox.type, "OrderedCollection");
      const create = outbox.orderedItems.find(
        (item: Json) => item.type === "Create" && item.object.id === (post as { uri: string }).uri,
      );
      assert.ok(create, JSON.stringify(outbox.orderedItems));
      assert.match(create.object.content, /Hello from the archive/);
      const attachment = [create.object.attachment].flat()[0];
      assert.match(attachment.url, /^media_attachments\//);
      const file = await readFile(join(dir, "out", attachment.url));
      assert.deepEqual([...file.subarray(1, 4)], [...Buffer.from("PNG")]);
      assert.deepEqual((await read("likes.json")).orderedItems, [bobs.uri]);
      assert.deepEqual((await read("bookmarks.json")).orderedItems, [bobs.uri]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    // A week and a day on: the archive (file and record) and the finished import are pruned.
    offset = 8 * 24 * 3600_000;
    try {
      assert.ok(await pruneExpiredKv(server.wren.ctx));
      assert.deepEqual(await archivesOf(server.wren.ctx, alice.account.id), []);
      assert.equal(await server.wren.ctx.files.get(archive.fileKey as string), null);
      assert.deepEqual(await importsOf(server.wren.ctx, alice.account.id), []);
    } finally {
      offset = 0;
    }
  });
});
