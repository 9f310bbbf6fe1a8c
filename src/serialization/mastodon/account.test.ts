import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { assertMatchesSchema } from "../../../test/helpers/openapi.ts";
import type { Account } from "../../domain/account.ts";
import type { User } from "../../domain/user.ts";
import type { AccountView } from "../../views/account-view.ts";
import { serializeAccount, serializeCredentialAccount, type UrlContext } from "./account.ts";

const urls: UrlContext = {
  publicUrl: "https://social.example",
  fileUrl: (key) => `https://files.example/${key}`,
};

const account: Account = {
  id: "110000000000000001",
  username: "alice",
  domain: null,
  displayName: "Alice",
  note: "hi",
  noteHtml: "<p>hi</p>",
  locked: true,
  bot: false,
  group: false,
  discoverable: true,
  indexable: false,
  fields: [{ name: "Web", value: "https://a.example", valueHtml: "<a>…</a>", verifiedAt: null }],
  avatar: { kind: "hosted", key: "a/1.gif", staticKey: "a/1-static.png", contentType: "image/gif" },
  header: null,
  uri: "https://social.example/users/alice",
  url: "https://social.example/@alice",
  createdAt: "2024-05-06T07:08:09.123Z",
  updatedAt: "2024-05-06T07:08:09.123Z",
};

const view: AccountView = {
  account,
  statusesCount: 3,
  followersCount: 0,
  followingCount: 0,
  lastStatusAt: "2024-06-01T12:00:00.000Z",
  emojis: [],
  role: "admin",
};

const user: User = {
  accountId: account.id,
  email: "alice@mail.example",
  passwordHash: "x",
  role: "admin",
  locale: "en",
  defaultVisibility: "unlisted",
  defaultSensitive: true,
  defaultLanguage: null,
  disabled: false,
  createdAt: account.createdAt,
};

describe("serializeAccount", () => {
  it("gives Mastodon's entity: midnight created_at, date-only last_status_at, image URLs", () => {
    const json = serializeAccount(view, urls);
    assertMatchesSchema(json, "Account");
    assert.equal(json.created_at, "2024-05-06T00:00:00.000Z");
    assert.equal(json.last_status_at, "2024-06-01");
    assert.equal(json.avatar, "https://files.example/a/1.gif");
    assert.equal(json.avatar_static, "https://files.example/a/1-static.png");
    assert.equal(json.header, "https://social.example/headers/original/missing.png");
    assert.equal(json.header_static, json.header);
    assert.equal(json.note, "<p>hi</p>");
    assert.deepEqual(json.fields, [{ name: "Web", value: "<a>…</a>", verified_at: null }]);
    assert.deepEqual(json.roles, [{ id: "2", name: "Admin", color: "" }]);
    assert.equal(json.acct, "alice");
    assert.equal(json.noindex, false);
  });

  it("uses acct user@domain, remote image URLs and no noindex for remote accounts", () => {
    const json = serializeAccount(
      {
        ...view,
        role: null,
        account: {
          ...account,
          domain: "remote.example",
          avatar: {
            kind: "remote",
            url: "https://r.example/a.gif",
            staticUrl: "https://r.example/a.png",
          },
        },
      },
      urls,
    );
    assertMatchesSchema(json, "Account");
    assert.equal(json.acct, "alice@remote.example");
    assert.equal(json.avatar_static, "https://r.example/a.png");
    assert.equal("noindex" in json, false);
    assert.deepEqual(json.roles, []);
  });
});

describe("serializeCredentialAccount", () => {
  it("adds source with plain values and the role", () => {
    const json = serializeCredentialAccount({ ...view, user, followRequestsCount: 0 }, urls);
    assertMatchesSchema(json, "CredentialAccount");
    assert.equal(json.source.note, "hi");
    assert.equal(json.source.privacy, "unlisted");
    assert.equal(json.source.sensitive, true);
    assert.equal(json.source.language, null);
    assert.deepEqual(json.source.fields, [
      { name: "Web", value: "https://a.example", verified_at: null },
    ]);
    assert.equal(json.role.name, "Admin");
    // Mastodon's default Admin role: every permission but `administrator` and `view_devops`.
    assert.equal(json.role.permissions, String((1 << 20) - 1 - 0b11));
  });
});
