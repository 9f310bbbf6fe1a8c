import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AppError } from "../../src/domain/errors.ts";
import { createLocalAccount } from "../../src/services/accounts/create-local-account.ts";
import { resetPassword } from "../../src/services/accounts/reset-password.ts";
import { verifyPassword } from "../../src/services/auth/passwords.ts";
import { createUserWithToken } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

function isAppError(status: number, pattern: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.status, status);
    assert.match(error.message, pattern);
    return true;
  };
}

describe("createLocalAccount", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it("makes an account and a user with a hashed password and Mastodon URLs", async () => {
    const ctx = server.wren.ctx;
    const { account, user } = await createLocalAccount(ctx, {
      username: "carol",
      email: " Carol@Mail.example ",
      password: "carol's password",
      role: "moderator",
      locale: "fr",
    });
    assert.match(account.id, /^\d+$/);
    assert.equal(account.domain, null);
    assert.equal(account.uri, `${server.url}/users/carol`);
    assert.equal(account.url, `${server.url}/@carol`);
    assert.equal(user.email, "Carol@Mail.example");
    assert.equal(user.role, "moderator");
    assert.equal(user.locale, "fr");
    assert.notEqual(user.passwordHash, "carol's password");
    assert.ok(await verifyPassword("carol's password", user.passwordHash));
    assert.equal((await ctx.storage.accounts.findByUsername("CAROL", null))?.id, account.id);
  });

  it("keeps reserved names for the operator only", async () => {
    const ctx = server.wren.ctx;
    const input = { username: "root", email: "root@mail.example", password: "rootroot" };
    await assert.rejects(createLocalAccount(ctx, input), isAppError(422, /Username is reserved/));
    const { account } = await createLocalAccount(ctx, { ...input, allowReserved: true });
    assert.equal(account.username, "root");
  });

  it("refuses dots and dashes in local usernames and a malformed locale", async () => {
    const ctx = server.wren.ctx;
    await assert.rejects(
      createLocalAccount(ctx, { username: "a.b", email: "ab@mail.example", password: "password1" }),
      isAppError(422, /Username must contain only letters, numbers and underscores/),
    );
    await assert.rejects(
      createLocalAccount(ctx, {
        username: "loc",
        email: "loc@mail.example",
        password: "password1",
        locale: "<script>",
      }),
      isAppError(422, /Locale is not included in the list/),
    );
  });
});

describe("resetPassword", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it("sets the new password and revokes every token of the user", async () => {
    const dave = await createUserWithToken(server, "dave", ["read"]);
    const other = await createUserWithToken(server, "erin", ["read"]);
    const verify = (token: string) =>
      server.request("/api/v1/accounts/verify_credentials", { token });
    assert.equal((await verify(dave.token)).status, 200);

    const result = await resetPassword(server.wren.ctx, {
      username: "@Dave",
      password: "brand new pass",
    });
    assert.equal(result.revokedTokens, 1);
    assert.equal((await verify(dave.token)).status, 401);
    assert.equal((await verify(other.token)).status, 200, "other users keep their tokens");
    const user = await server.wren.ctx.storage.users.get(dave.account.id);
    assert.ok(user && (await verifyPassword("brand new pass", user.passwordHash)));
  });

  it("answers 404 for unknown users and 422 for bad passwords", async () => {
    const ctx = server.wren.ctx;
    await assert.rejects(
      resetPassword(ctx, { username: "ghost", password: "whatever123" }),
      isAppError(404, /ghost/),
    );
    await assert.rejects(
      resetPassword(ctx, { username: "erin", password: "short" }),
      isAppError(422, /Password is too short \(minimum is 8 characters\)/),
    );
    await assert.rejects(
      resetPassword(ctx, { username: "erin", password: "x".repeat(73) }),
      isAppError(422, /Password is too long \(maximum is 72 characters\)/),
    );
  });
});
