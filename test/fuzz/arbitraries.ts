// Generators of hostile requests: a registered route with its parameters replaced by real ids
// or path tricks, a query string, a body of some kind (JSON of wrong types, huge or deeply
// nested; url-encoded with odd brackets; multipart, broken or not; bytes that are not UTF-8)
// under a content type that may not match it, and odd headers.

import fc from "fast-check";
import { fillPath, type Route } from "../helpers/routes.ts";
import type { RawRequest } from "./harness.ts";

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text);

/** Parameter names Mastodon endpoints read: the fuzz feeds them wrong types. */
const KNOWN_KEYS = [
  "status",
  "media_ids",
  "poll",
  "in_reply_to_id",
  "sensitive",
  "spoiler_text",
  "visibility",
  "language",
  "lang",
  "scheduled_at",
  "choices",
  "limit",
  "max_id",
  "since_id",
  "min_id",
  "id",
  "display_name",
  "note",
  "fields_attributes",
  "locked",
  "bot",
  "discoverable",
  "source",
  "q",
  "resolve",
  "type",
  "types",
  "exclude_types",
  "account_id",
  "following",
  "reblogs",
  "notify",
  "languages",
  "comment",
  "grant_type",
  "client_id",
  "client_secret",
  "client_name",
  "redirect_uri",
  "redirect_uris",
  "scope",
  "scopes",
  "code",
  "token",
  "username",
  "password",
  "email",
  "agreement",
  "locale",
  "reason",
  "timeline",
  "last_read_id",
  "home",
  "notifications",
  "name",
  "focus",
  "description",
  "file",
  "thumbnail",
  "local",
  "remote",
  "only_media",
  "exclude_replies",
  "pinned",
  "tagged",
  "offset",
  "with_dismissed",
  "acct",
  "resource",
  "response_type",
  "force_login",
  "expires_in",
  "options",
  "multiple",
  "__proto__",
  "constructor",
];

const hugeString = fc
  .tuple(fc.constantFrom("a", "é", "😀", "\u0000", "<"), fc.integer({ min: 10_000, max: 300_000 }))
  .map(([c, n]) => c.repeat(n));

const oddNumber = fc.constantFrom(
  -1,
  0,
  1.5,
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  -1e308,
  2 ** 31,
  2 ** 63,
);

/** Values of the wrong type (and a few of the right one, so deeper checks run too). */
function hostileValue(ids: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.string(),
    fc.string({ unit: "binary" }),
    fc.constantFrom(...ids),
    fc.integer(),
    oddNumber,
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.oneof(fc.string(), fc.integer(), fc.constantFrom(...ids)), { maxLength: 30 }),
    fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer()), { maxKeys: 5 }),
    fc.jsonValue({ maxDepth: 3 }),
    hugeString,
  );
}

/** A JSON text nested `depth` levels deep (arrays or objects). */
const deepJson = fc
  .tuple(fc.integer({ min: 100, max: 200_000 }), fc.boolean(), fc.constantFrom(...KNOWN_KEYS))
  .map(([depth, arrays, key]) =>
    arrays
      ? `{"${key}":${"[".repeat(depth)}${"]".repeat(depth)}}`
      : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
  );

const badUtf8 = fc.oneof(
  fc.uint8Array({ maxLength: 500 }),
  fc
    .tuple(fc.constantFrom(...KNOWN_KEYS), fc.uint8Array({ minLength: 1, maxLength: 50 }))
    .map(([key, raw]) =>
      Uint8Array.from([...bytes(`{"${key}":"`), 0xff, 0xfe, ...raw, 0xc3, ...bytes('"}')]),
    ),
  fc.constant(Uint8Array.from([...bytes("status=caf"), 0xe9, 0x80, ...bytes("&visibility=%ff")])),
);

const bracketKey = fc.oneof(
  fc.constantFrom(...KNOWN_KEYS),
  fc.constantFrom(...KNOWN_KEYS).map((k) => `${k}[]`),
  fc.constantFrom(
    "poll[options][]",
    "poll[expires_in]",
    "fields_attributes[0][name]",
    "fields_attributes[x][value]",
    "a[b][c][d][e][f][g][h][i][j]",
    "a[][b]",
    "a[",
    "]a[",
    "__proto__[polluted]",
    "constructor[prototype][x]",
    "source[privacy]",
    "data[alerts][mention]",
    "id[]",
    "",
  ),
  fc.string(),
);

const urlEncoded = fc
  .array(fc.tuple(bracketKey, fc.oneof(fc.string(), fc.integer().map(String), hugeString)), {
    maxLength: 12,
  })
  .map((pairs) =>
    pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&"),
  );

const BOUNDARY = "fuzzboundary7MA4YWxkTrZu0gW";

const multipart = fc
  .tuple(
    fc.array(fc.tuple(bracketKey, fc.oneof(fc.string(), hugeString), fc.boolean(), fc.string()), {
      maxLength: 6,
    }),
    fc.constantFrom("complete", "truncated", "no-final-boundary", "garbage-boundary"),
  )
  .map(([parts, shape]) => {
    let text = "";
    for (const [name, value, asFile, filename] of parts) {
      text += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name.replace(/"/g, "")}"`;
      if (asFile) text += `; filename="${filename.replace(/"/g, "")}"\r\nContent-Type: image/png`;
      text += `\r\n\r\n${value}\r\n`;
    }
    if (shape === "complete") text += `--${BOUNDARY}--\r\n`;
    if (shape === "truncated") text = text.slice(0, Math.floor(text.length / 2));
    if (shape === "garbage-boundary") text = `--wrong\r\n${text}--wrong--`;
    return text;
  });

type Body = { contentType: string | undefined; body: Uint8Array | undefined };

function bodyArb(ids: readonly string[]): fc.Arbitrary<Body> {
  const json = (text: string): Body => ({ contentType: "application/json", body: bytes(text) });
  const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
  return fc.oneof(
    w(3, fc.constant<Body>({ contentType: undefined, body: undefined })),
    w(
      6,
      fc
        .dictionary(fc.constantFrom(...KNOWN_KEYS), hostileValue(ids), { maxKeys: 6 })
        .map((o) => json(JSON.stringify(o))),
    ),
    w(
      2,
      fc.jsonValue({ maxDepth: 4 }).map((v) => json(JSON.stringify(v))),
    ),
    w(1, deepJson.map(json)),
    w(
      1,
      fc.string().map((s) => json(s)),
    ),
    w(
      1,
      badUtf8.map((b) => ({ contentType: "application/json", body: b })),
    ),
    w(
      1,
      badUtf8.map((b) => ({ contentType: "application/x-www-form-urlencoded", body: b })),
    ),
    w(
      3,
      urlEncoded.map((s) => ({
        contentType: "application/x-www-form-urlencoded",
        body: bytes(s),
      })),
    ),
    w(
      2,
      multipart.map((s) => ({
        contentType: `multipart/form-data; boundary=${BOUNDARY}`,
        body: bytes(s),
      })),
    ),
    w(
      1,
      multipart.map((s) => ({ contentType: "multipart/form-data", body: bytes(s) })),
    ),
    w(
      1,
      fc
        .integer({ min: 1_000_000, max: 3_000_000 })
        .map((n) => json(`{"status":"${"x".repeat(n)}"}`)),
    ),
  );
}

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-16",
  "application/activity+json",
  'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "multipart/mixed; boundary=x",
  "image/png",
  ";;;",
  "application/json\u00a0",
];

/** A path parameter: a real id, a handle, or a trick. */
function paramArb(ids: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...ids) },
    fc.constantFrom("alice", "@alice", "bob", "@alice@127.0.0.1", "nobody"),
    fc.constantFrom(
      "..",
      "%2e%2e",
      "%2E%2E%2F%2E%2E%2Fwren.lock",
      "..%2f..%2fwren.lock",
      "%00",
      "a%00b",
      "",
      "-1",
      "0",
      "1e9",
      "99999999999999999999999999999",
      "%ff%fe",
      "%",
      "%zz",
      "%C0%AE%C0%AE",
      "mention-1",
      "favourite-123-456",
    ),
    fc.integer({ min: 100, max: 20_000 }).map((n) => "9".repeat(n)),
    fc.string().map(encodeURIComponent),
  );
}

/** Fills the route's parameters with the generated values in turn. */
function fillWith(template: string, params: string[]): string {
  let i = 0;
  return fillPath(template, () => params[i++ % params.length] ?? "");
}

const identity = (p: string) => p;

/** Most requests keep their path (so handlers run); the rest get one trick. */
const pathTrick = fc.oneof(
  { weight: 12, arbitrary: fc.constant(identity) },
  fc.constantFrom(
    (p: string) => p.replace(/\//g, "//"),
    (p: string) => `${p}/`,
    (p: string) => `${p}/..`,
    (p: string) => `${p}/%2e%2e/%2e%2e/wren.lock`,
    (p: string) => `/./${p.slice(1)}`,
    (p: string) => `${p}%00`,
    (p: string) => `${p};x=1`,
    (p: string) => p.toUpperCase(),
    (p: string) => `/..${p}`,
  ),
);

/** Mostly a valid token (so handlers run), else none, a wrong one or two at once. */
const authorization = (tokens: { alice: string; bob: string }) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constant<[string, string][]>([["authorization", `Bearer ${tokens.alice}`]]),
    },
    {
      weight: 3,
      arbitrary: fc.constant<[string, string][]>([["authorization", `Bearer ${tokens.bob}`]]),
    },
    fc.constantFrom<[string, string][]>(
      [],
      [["authorization", "Bearer nope"]],
      [["authorization", "Bearer"]],
      [["authorization", "Basic Zm9vOmJhcg=="]],
      [["authorization", `Bearer ${"x".repeat(5000)}`]],
      [
        ["authorization", `Bearer ${tokens.alice}`],
        ["authorization", `Bearer ${tokens.bob}`],
      ],
      [
        ["authorization", `Bearer ${tokens.alice}`],
        ["authorization", "Bearer nope"],
      ],
    ),
  );

const extraHeaders = fc.array(
  fc.oneof(
    fc.constantFrom<[string, string]>(
      ["accept", "application/activity+json"],
      ["accept", "text/html"],
      ["accept", "*/*;q=garbage"],
      ["x-forwarded-for", "not-an-ip, 999.1.1.1"],
      ["idempotency-key", "fuzz"],
      ["accept-language", "xx-ÿÿ".replace(/ÿ/g, "y")],
      ["origin", "null"],
      ["cookie", "a=b; wren_session=garbage"],
      ["x-fuzz", "a".repeat(20_000)],
      ["x-fuzz-many", "b".repeat(7_000)],
    ),
    fc.tuple(
      fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
      fc.string().map((s) => s.replace(/[^\x20-\x7e]/g, "")),
    ),
  ),
  { maxLength: 4 },
);

const queryArb = (ids: readonly string[]) =>
  fc
    .array(
      fc.tuple(
        bracketKey,
        fc.oneof(
          { weight: 4, arbitrary: fc.string() },
          { weight: 3, arbitrary: fc.constantFrom(...ids) },
          { weight: 2, arbitrary: fc.integer().map(String) },
          { weight: 1, arbitrary: hugeString },
        ),
      ),
      { maxLength: 6 },
    )
    .map((pairs) =>
      pairs.length === 0
        ? ""
        : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v.slice(0, 1000))}`).join("&")}`,
    );

export function requestArb(
  routes: readonly Route[],
  ids: readonly string[],
  tokens: { alice: string; bob: string },
): fc.Arbitrary<RawRequest> {
  return fc
    .record({
      route: fc.constantFrom(...routes),
      otherMethod: fc.oneof(
        { weight: 6, arbitrary: fc.constant(null) },
        fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE"),
      ),
      params: fc.array(paramArb(ids), { minLength: 1, maxLength: 3 }),
      trick: pathTrick,
      query: queryArb(ids),
      body: bodyArb(ids),
      contentType: fc.oneof(
        { weight: 4, arbitrary: fc.constant(null) },
        fc.constantFrom(...CONTENT_TYPES),
      ),
      auth: authorization(tokens),
      extra: extraHeaders,
    })
    .map(({ route, otherMethod, params, trick, query, body, contentType, auth, extra }) => {
      const method = otherMethod ?? route.method;
      const headers: [string, string][] = [...auth, ...extra];
      const type = contentType ?? body.contentType;
      if (type !== undefined && body.body) headers.push(["content-type", type]);
      const withBody = method !== "GET" && method !== "HEAD";
      return {
        method,
        path: `${trick(fillWith(route.path, params))}${query}`,
        headers,
        body: withBody ? body.body : undefined,
      };
    });
}

/** An ActivityPub-looking object with hostile fields (wrong types, odd URLs, huge content). */
export function activityObjectArb(actorBase: string): fc.Arbitrary<Record<string, unknown>> {
  const types = fc.constantFrom(
    "Create",
    "Update",
    "Delete",
    "Follow",
    "Accept",
    "Reject",
    "Undo",
    "Like",
    "Announce",
    "Block",
    "Move",
    "Flag",
    "EmojiReact",
    "Question",
    "Note",
    "Person",
    "Tombstone",
    "",
  );
  const anyValue = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.constant(null),
    fc.boolean(),
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(
      `${actorBase}/users/alice`,
      "https://example.invalid/users/x",
      "http://127.0.0.1:1/actor",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "https://www.w3.org/ns/activitystreams#Public",
    ),
  );
  return fc.record(
    {
      "@context": fc.oneof(
        fc.constant("https://www.w3.org/ns/activitystreams"),
        fc.constant(["https://www.w3.org/ns/activitystreams", { x: "http://x.invalid/#" }]),
        fc.constant("https://evil.invalid/context.jsonld"),
        anyValue,
      ),
      id: anyValue,
      type: fc.oneof(types, anyValue, fc.array(types, { maxLength: 3 })),
      actor: anyValue,
      object: fc.oneof(
        anyValue,
        fc.record({ type: types, id: anyValue, content: anyValue, attributedTo: anyValue }),
      ),
      to: fc.oneof(anyValue, fc.array(anyValue, { maxLength: 5 })),
      content: fc.oneof(fc.string(), hugeString),
      tag: fc.oneof(anyValue, fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 })),
    },
    { requiredKeys: [] },
  );
}

/** An ActivityPub-looking document, hostile in shape, type, size or depth, as bytes. */
export function activityArb(actorBase: string): fc.Arbitrary<Uint8Array> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: activityObjectArb(actorBase).map((o) => bytes(JSON.stringify(o))),
    },
    fc.jsonValue({ maxDepth: 5 }).map((v) => bytes(JSON.stringify(v))),
    deepJson.map(bytes),
    badUtf8,
    fc.string().map(bytes),
  );
}
