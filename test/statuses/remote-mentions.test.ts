// `@user@host` mentions of remote accounts in local posts: hosts with a port, known records
// (no lookup), unknown handles looked up through the remote resolver (the federation's port,
// replaced here by one that stores a record as a WebFinger lookup would), and lookups that fail.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Account } from "../../src/domain/account.ts";
import { findMentions } from "../../src/domain/text/mentions.ts";
import { blockDomain } from "../../src/services/domain-blocks/domain-blocks.ts";
import type { RemoteResolver } from "../../src/services/remote.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type Json, post } from "./helpers.ts";

describe("mention syntax with a port", () => {
  it("keeps the port as part of the domain only when it ends the mention", () => {
    const found = (text: string) => findMentions(text).map((m) => [m.acct, m.domain]);
    assert.deepEqual(found("hi @bob@127.0.0.1:4431!"), [["bob@127.0.0.1:4431", "127.0.0.1:4431"]]);
    assert.deepEqual(found("@Bob@Social.Example:8443 and @eve"), [
      ["Bob@Social.Example:8443", "social.example:8443"],
      ["eve", null],
    ]);
    assert.deepEqual(found("@bob@host.example:30pm"), [["bob@host.example", "host.example"]]);
    assert.deepEqual(found("@bob@host.example: hello"), [["bob@host.example", "host.example"]]);
  });
});

describe("remote mentions in local posts", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: Account;
  let asked: string[];
  let answers: Map<string, Account | Error>;

  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice", ["read", "write"]);
    bob = remoteAccountRecord(server, "bob", "127.0.0.1:4431", {
      uri: "https://127.0.0.1:4431/users/bob",
      url: "https://127.0.0.1:4431/@bob",
    });
    await server.wren.ctx.storage.accounts.put(bob);
    asked = [];
    answers = new Map();
    const resolver: RemoteResolver = {
      async resolveAccount(handle) {
        asked.push(handle);
        const answer = answers.get(handle);
        if (answer instanceof Error) throw answer;
        if (answer) await server.wren.ctx.storage.accounts.put(answer);
        return answer;
      },
      async resolveStatus() {
        return undefined;
      },
    };
    server.wren.ctx.remote = resolver;
  });

  after(() => server.close());

  it("links a known remote account on a host with a port, without a lookup", async () => {
    const body: Json = await post(server, alice, { status: "hi @bob@127.0.0.1:4431 !" });
    assert.deepEqual(asked, []);
    assert.deepEqual(body.mentions, [
      { id: bob.id, username: "bob", url: bob.url, acct: "bob@127.0.0.1:4431" },
    ]);
    assert.equal(
      body.content,
      '<p>hi <span class="h-card" translate="no"><a href="https://127.0.0.1:4431/@bob" class="u-url mention">@<span>bob</span></a></span> !</p>',
    );
  });

  it("looks up an unknown handle once, stores it, and links it", async () => {
    const carol = remoteAccountRecord(server, "Carol", "social.example", {
      uri: "https://social.example/users/Carol",
      url: "https://social.example/@Carol",
    });
    answers.set("carol@social.example", carol);
    const body: Json = await post(server, alice, { status: "@carol@Social.Example hello" });
    assert.deepEqual(asked, ["carol@social.example"]);
    assert.deepEqual(
      body.mentions.map((m: Json) => [m.id, m.acct]),
      [[carol.id, "Carol@social.example"]],
    );
    assert.match(
      body.content,
      /href="https:\/\/social\.example\/@Carol" class="u-url mention">@<span>Carol<\/span>/,
    );

    // The record is now known: the next post needs no lookup.
    asked.length = 0;
    const again: Json = await post(server, alice, { status: "@carol@social.example again" });
    assert.deepEqual(asked, []);
    assert.deepEqual(
      again.mentions.map((m: Json) => m.id),
      [carol.id],
    );
  });

  it("leaves plain text for handles nobody answers for, or whose lookup fails", async () => {
    asked.length = 0;
    answers.set("ghost@gone.example", new Error("connection refused"));
    const body: Json = await post(server, alice, {
      status: "@nobody@nowhere.example and @ghost@gone.example:8080 and @ghost@gone.example",
    });
    assert.deepEqual(asked.sort(), [
      "ghost@gone.example",
      "ghost@gone.example:8080",
      "nobody@nowhere.example",
    ]);
    assert.deepEqual(body.mentions, []);
    assert.equal(
      body.content,
      "<p>@nobody@nowhere.example and @ghost@gone.example:8080 and @ghost@gone.example</p>",
    );
  });

  it("does not mention suspended accounts or accounts of blocked domains", async () => {
    const { storage } = server.wren.ctx;
    const gone = remoteAccountRecord(server, "gone", "social.example", { suspended: true });
    const spammer = remoteAccountRecord(server, "spammer", "spam.example");
    await storage.accounts.put(gone);
    await storage.accounts.put(spammer);
    await blockDomain(server.wren.ctx, "spam.example");
    asked.length = 0;
    const body: Json = await post(server, alice, {
      status: "@gone@social.example @spammer@spam.example @new@sub.spam.example",
    });
    assert.deepEqual(body.mentions, []);
    assert.deepEqual(asked, [], "nothing is looked up on a blocked domain");
    assert.doesNotMatch(body.content, /h-card/);
  });

  it("never looks up our own domain, with or without its port", async () => {
    asked.length = 0;
    const host = new URL(server.url).host;
    const body: Json = await post(server, alice, {
      status: `@alice@${host} @alice@${host.replace(/:\d+$/, "")} @nobody@${host}`,
    });
    assert.deepEqual(asked, []);
    assert.deepEqual(
      body.mentions.map((m: Json) => m.id),
      [alice.account.id],
    );
  });
});
