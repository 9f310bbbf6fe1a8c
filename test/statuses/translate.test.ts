// Translation of statuses (POST /api/v1/statuses/:id/translate) and the language pairs
// (GET /api/v1/instance/translation_languages) with a LibreTranslate-compatible service. A real
// LibreTranslate cannot run on this machine (it needs Python and language models), so the
// service is a stand-in: a small loopback HTTP server speaking LibreTranslate's documented API
// (POST /translate with q as an array, GET /languages) that "translates" a few English words
// into German and records what it was asked.

import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { storeMedia } from "../media/stored-media.ts";
import { call, type Json, post } from "./helpers.ts";

const API_KEY = "stand-in-key";
const WORDS: Record<string, string> = {
  Hello: "Hallo",
  world: "Welt",
  cat: "Katze",
  warning: "Warnung",
  Yes: "Ja",
  No: "Nein",
  photo: "Foto",
};

interface StandIn {
  url: string;
  /** Bodies of the /translate requests, in order. */
  requests: Json[];
  /** The status /translate answers with instead of translating (e.g. 429), or null. */
  failWith: number | null;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function startLibreTranslateStandIn(): Promise<StandIn> {
  const standIn: StandIn = { url: "", requests: [], failWith: null, close: async () => {} };
  const server: Server = createServer(async (req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && req.url === "/languages") {
      return reply(200, [
        { code: "en", name: "English", targets: ["de", "en", "fr"] },
        { code: "de", name: "German", targets: ["de", "en"] },
      ]);
    }
    if (req.method !== "POST" || req.url !== "/translate")
      return reply(404, { error: "Not Found" });
    const body = JSON.parse(await readBody(req));
    standIn.requests.push(body);
    if (body.api_key !== API_KEY) return reply(403, { error: "Invalid API key" });
    if (standIn.failWith !== null) return reply(standIn.failWith, { error: "Slow down" });
    const texts: string[] = Array.isArray(body.q) ? body.q : [body.q];
    const translated = texts.map((text) =>
      text
        .replace(/\b[A-Za-z]+\b/g, (word) => WORDS[word] ?? word)
        // A misbehaving service: markup that must never reach a client.
        .replace("EVIL", '<script>alert("x")</script><b onclick="x()">böse</b>'),
    );
    return reply(200, {
      translatedText: translated,
      ...(body.source === "auto"
        ? { detectedLanguage: texts.map(() => ({ confidence: 90, language: "en" })) }
        : {}),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.close = () => new Promise((resolve) => server.close(() => resolve()));
  return standIn;
}

const translate = (s: TestServer, user: TestUser, id: string, json: unknown, expected = 200) =>
  call(s, "POST", `/api/v1/statuses/${id}/translate`, { token: user.token, json }, expected);

describe("translation with a LibreTranslate-compatible service", () => {
  let standIn: StandIn;
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    standIn = await startLibreTranslateStandIn();
    server = await startTestServer({
      WREN_TRANSLATION_URL: `${standIn.url}/`,
      WREN_TRANSLATION_API_KEY: API_KEY,
      // The Instance entity requires a contact address.
      WREN_CONTACT_EMAIL: "admin@wren.example",
    });
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
  });
  after(async () => {
    await server.close();
    await standIn.close();
  });

  it("announces translation and the service's language pairs", async () => {
    const instance = await call(server, "GET", "/api/v2/instance");
    assert.deepEqual(instance.configuration.translation, { enabled: true });
    assert.deepEqual(await call(server, "GET", "/api/v1/instance/translation_languages"), {
      en: ["de", "fr"],
      de: ["en"],
      und: ["de", "en", "fr"],
    });
  });

  it("translates content, content warning and poll options in one request", async () => {
    const status = await post(server, alice, {
      status: "Hello world, I have a cat",
      spoiler_text: "cat warning",
      language: "en",
      poll: { options: ["Yes", "No"], expires_in: 3600 },
    });
    standIn.requests.length = 0;
    const translation = await translate(server, bob, status.id, { lang: "de" });
    assert.deepEqual(translation, {
      content: "<p>Hallo Welt, I have a Katze</p>",
      spoiler_text: "Katze Warnung",
      poll: { id: status.poll.id, options: [{ title: "Ja" }, { title: "Nein" }] },
      media_attachments: [],
      detected_source_language: "en",
      language: "de",
      provider: "LibreTranslate",
    });
    assert.deepEqual(standIn.requests, [
      {
        q: ["<p>Hello world, I have a cat</p>", "cat warning", "Yes", "No"],
        source: "en",
        target: "de",
        format: "html",
        api_key: API_KEY,
      },
    ]);
    // Kept a day: asked again (by anyone), the service is not asked again.
    assert.deepEqual(await translate(server, alice, status.id, { lang: "de" }), translation);
    assert.equal(standIn.requests.length, 1);
  });

  it("translates media descriptions, and a boost as the boosted status", async () => {
    const media = await storeMedia(server, alice.account.id, {
      description: "A photo of my cat & me",
    });
    const status = await post(server, alice, {
      status: "Hello",
      language: "en",
      media_ids: [media.id],
    });
    const boost = await call(server, "POST", `/api/v1/statuses/${status.id}/reblog`, {
      token: bob.token,
    });
    const translation = await translate(server, bob, boost.id, { lang: "de" });
    assert.equal(translation.content, "<p>Hallo</p>");
    assert.deepEqual(translation.media_attachments, [
      { id: media.id, description: "A Foto of my Katze & me" },
    ]);
    assert.equal(translation.poll, null);
    assert.equal(translation.spoiler_text, "");
  });

  it("cleans what the service returns", async () => {
    const status = await post(server, alice, { status: "Hello EVIL", language: "en" });
    const translation = await translate(server, bob, status.id, { lang: "de" });
    assert.doesNotMatch(translation.content, /script|onclick/);
    assert.match(translation.content, /^<p>Hallo .*böse.*<\/p>$/);
  });

  it("refuses the status's own language, pairs the service lacks and bad codes", async () => {
    const status = await post(server, alice, { status: "Hello", language: "en" });
    await translate(server, bob, status.id, { lang: "en" }, 403);
    await translate(server, bob, status.id, { lang: "ja" }, 403);
    // Without `lang`, the user's locale (English here): the status's own language.
    await translate(server, bob, status.id, {}, 403);
    await translate(server, bob, status.id, { lang: "<script>" }, 422);
    await translate(server, bob, status.id, { lang: ["de"] }, 422);
  });

  it("answers 404 for statuses the viewer cannot see", async () => {
    const hidden = await post(server, alice, {
      status: "Hello friends",
      language: "en",
      visibility: "private",
    });
    await translate(server, bob, hidden.id, { lang: "de" }, 404);
    await translate(server, bob, "999999999", { lang: "de" }, 404);
    await translate(server, bob, "nonsense", { lang: "de" }, 404);
    // Its author sees it, and may have it translated.
    const own = await translate(server, alice, hidden.id, { lang: "de" });
    assert.equal(own.content, "<p>Hallo friends</p>");
  });

  it("needs a user token with read:statuses", async () => {
    const status = await post(server, alice, { status: "Hello", language: "en" });
    const path = `/api/v1/statuses/${status.id}/translate`;
    await call(server, "POST", path, { json: { lang: "de" } }, 401);
    const writer = await createUserWithToken(server, "writer", ["write"]);
    await call(server, "POST", path, { token: writer.token, json: { lang: "de" } }, 403);
  });

  it("answers 503 when the service refuses", async () => {
    // Text of its own: no kept translation stands in for the service.
    const status = await post(server, alice, { status: "Hello, busy world", language: "en" });
    standIn.failWith = 429;
    try {
      const error = await translate(server, bob, status.id, { lang: "de" }, 503);
      assert.match(error.error, /Too many requests/);
    } finally {
      standIn.failWith = null;
    }
  });
});

describe("translation without a service", () => {
  let server: TestServer;
  let alice: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
  });
  after(() => server.close());

  it("has no language pairs and answers 503 for a status the viewer can see", async () => {
    assert.deepEqual(await call(server, "GET", "/api/v1/instance/translation_languages"), {});
    const status = await post(server, alice, { status: "Hello", language: "en" });
    await translate(server, alice, status.id, { lang: "de" }, 503);
    await translate(server, alice, "999999999", { lang: "de" }, 404);
  });
});
