// A server with what the public pages show: a local account with a hostile display name, a bio
// and fields using a custom emoji, an avatar and header, and statuses of every visibility
// (plus a deleted one, one with a picture, one with a poll, one behind a content warning), and
// a known remote account.

import assert from "node:assert/strict";
import { addCustomEmoji } from "../../src/services/emojis/add-emoji.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { BLUE, RED, solidPng } from "../helpers/images.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

export const HOSTILE_NAME = `<script>x("")</script> :wren:`;
export const ALT_TEXT = `A red square "quoted" <b>`;

export interface WebFixture {
  server: TestServer;
  alice: TestUser;
  ids: {
    public: string;
    unlisted: string;
    private: string;
    direct: string;
    deleted: string;
    picture: string;
    poll: string;
    spoiler: string;
    reblog: string;
  };
}

async function api(
  server: TestServer,
  token: string,
  method: string,
  path: string,
  body?: FormData | Record<string, unknown>,
): Promise<{ id: string; [key: string]: unknown }> {
  const init: RequestInit & { token: string } = { method, token };
  if (body instanceof FormData) init.body = body;
  else if (body) {
    init.body = JSON.stringify(body);
    init.headers = { "content-type": "application/json" };
  }
  const res = await server.request(path, init);
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

function pngForm(field: string, bytes: Buffer, extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(extra)) form.append(key, value);
  form.append(field, new Blob([new Uint8Array(bytes)], { type: "image/png" }), "image.png");
  return form;
}

export async function startWebFixture(): Promise<WebFixture> {
  const server = await startTestServer({ WREN_INSTANCE_TITLE: "Wren Test" });
  try {
    return await populate(server);
  } catch (error) {
    await server.close();
    throw error;
  }
}

async function populate(server: TestServer): Promise<WebFixture> {
  const ctx = server.wren.ctx;
  await addCustomEmoji(ctx, { shortcode: "wren", image: await solidPng(32, 32, BLUE) });
  const alice = await createUserWithToken(server, "alice");
  const bob = await createUserWithToken(server, "bob");
  const t = alice.token;

  const profile = pngForm("avatar", await solidPng(120, 120, RED), {
    display_name: HOSTILE_NAME,
    note: "Birds & code :wren:\n\nSecond <paragraph>",
    "fields_attributes[0][name]": "Site <b>",
    "fields_attributes[0][value]": "https://wren.example",
  });
  profile.append(
    "header",
    new Blob([new Uint8Array(await solidPng(600, 200, BLUE))], { type: "image/png" }),
    "header.png",
  );
  await api(server, t, "PATCH", "/api/v1/accounts/update_credentials", profile);

  const post = (body: Record<string, unknown>) => api(server, t, "POST", "/api/v1/statuses", body);
  const pub = await post({ status: "Hello <world> :wren: #birds", visibility: "public" });
  const unlisted = await post({ status: "Quiet unlisted post", visibility: "unlisted" });
  const priv = await post({ status: "Followers only secret", visibility: "private" });
  const direct = await post({ status: "@bob direct secret", visibility: "direct" });
  const deleted = await post({ status: "Soon deleted post", visibility: "public" });
  await api(server, t, "DELETE", `/api/v1/statuses/${deleted.id}`);

  const media = await api(
    server,
    t,
    "POST",
    "/api/v2/media",
    pngForm("file", await solidPng(300, 200, RED), { description: ALT_TEXT }),
  );
  const picture = await post({ status: "A picture", media_ids: [media.id] });
  const poll = await post({
    status: "Which bird?",
    poll: { options: ["Wren", "Robin"], expires_in: 3600 },
  });
  await api(server, bob.token, "POST", `/api/v1/polls/${(poll.poll as { id: string }).id}/votes`, {
    choices: [0],
  });
  const spoiler = await post({ status: "Hidden text", spoiler_text: "Birds ahead" });
  const reblog = await api(server, bob.token, "POST", `/api/v1/statuses/${pub.id}/reblog`);

  await ctx.storage.accounts.put(
    remoteAccountRecord(server, "carol", "remote.example", {
      url: "https://remote.example/@carol",
      uri: "https://remote.example/users/carol",
    }),
  );

  return {
    server,
    alice,
    ids: {
      public: pub.id,
      unlisted: unlisted.id,
      private: priv.id,
      direct: direct.id,
      deleted: deleted.id,
      picture: picture.id,
      poll: poll.id,
      spoiler: spoiler.id,
      reblog: reblog.id,
    },
  };
}
