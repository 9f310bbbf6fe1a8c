// `wren account pending|approve|reject` and `wren invite create|list|revoke` as an operator runs
// them: through a running server's admin socket, and with the server stopped (direct storage).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isApproved } from "../../src/domain/user.ts";
import { registerAccount } from "../../src/services/accounts/sign-up.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { runWren } from "./run-wren.ts";

function rows(stdout: string): string[][] {
  return stdout
    .trim()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.split("\t"));
}

for (const stopServer of [false, true]) {
  describe(`wren account approve|reject and wren invite, ${stopServer ? "server stopped" : "server running"}`, () => {
    let server: TestServer;
    let env: Record<string, string>;
    before(async () => {
      server = await startTestServer({ WREN_REGISTRATIONS: "approval" });
      for (const name of ["hopeful", "spammer"]) {
        await registerAccount(
          server.wren.ctx,
          {
            username: name,
            email: `${name}@mail.example`,
            password: "a long enough password",
            agreement: true,
            reason: `${name} reason`,
          },
          null,
        );
      }
      env = { WREN_DATA_DIR: server.dataDir, WREN_PUBLIC_URL: server.config.publicUrl };
      if (stopServer) await server.stop();
    });
    after(() => server.close());

    it("lists, approves and rejects pending sign-ups", async () => {
      const pending = await runWren(["account", "pending"], env);
      assert.equal(pending.code, 0, pending.stderr);
      assert.deepEqual(
        rows(pending.stdout).map((r) => [r[0], r[1], r[3]]),
        [
          ["hopeful", "hopeful@mail.example", "hopeful reason"],
          ["spammer", "spammer@mail.example", "spammer reason"],
        ],
      );
      const approve = await runWren(["account", "approve", "hopeful"], env);
      assert.equal(approve.code, 0, approve.stderr);
      assert.match(approve.stderr, /Approved hopeful/);
      const reject = await runWren(["account", "reject", "spammer"], env);
      assert.equal(reject.code, 0, reject.stderr);
      const after = await runWren(["account", "pending"], env);
      assert.equal(after.stdout, "");
      const rejectApproved = await runWren(["account", "reject", "hopeful"], env);
      assert.notEqual(rejectApproved.code, 0);
      if (stopServer) await server.start();
      const ctx = server.wren.ctx;
      const hopeful = await ctx.storage.accounts.findByUsername("hopeful", null);
      const user = hopeful ? await ctx.storage.users.get(hopeful.id) : undefined;
      assert.ok(user && isApproved(user));
      assert.equal(await ctx.storage.accounts.findByUsername("spammer", null), undefined);
      if (stopServer) await server.stop();
    });

    it("creates, lists and revokes invites", async () => {
      const create = await runWren(
        ["invite", "create", "--max-uses", "3", "--expires-in", "1d"],
        env,
      );
      assert.equal(create.code, 0, create.stderr);
      const url = create.stdout.trim();
      assert.match(url, new RegExp(`^${server.config.publicUrl}/invite/[A-Za-z0-9]{8}$`));
      const code = url.split("/invite/")[1] as string;
      const list = await runWren(["invite", "list"], env);
      const [row] = rows(list.stdout);
      assert.deepEqual([row?.[0], row?.[1], row?.[3], row?.[4]], [code, "0/3", "usable", url]);
      assert.ok(Date.parse(row?.[2] ?? "") > Date.now());
      const revoke = await runWren(["invite", "revoke", code], env);
      assert.equal(revoke.code, 0, revoke.stderr);
      const [revoked] = rows((await runWren(["invite", "list"], env)).stdout);
      assert.equal(revoked?.[3], "revoked");
      const bad = await runWren(["invite", "create", "--expires-in", "soon"], env);
      assert.equal(bad.code, 2);
      const lonely = await runWren(["invite", "create", "--autofollow"], env);
      assert.equal(lonely.code, 2);
    });
  });
}
