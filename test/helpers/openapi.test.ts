import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EMPTY, operations } from "../schemas/operations.ts";
import {
  assertMatchesResponse,
  assertMatchesSchema,
  findOperation,
  schemaNames,
} from "./openapi.ts";

/** A local account as Mastodon 4.x serialises it (REST::AccountSerializer). */
function account(): Record<string, unknown> {
  return {
    id: "110000000000000001",
    username: "alice",
    acct: "alice",
    display_name: "Alice",
    locked: false,
    bot: false,
    discoverable: true,
    indexable: false,
    group: false,
    created_at: "2024-03-01T00:00:00.000Z",
    note: "<p>Hello, I am Alice.</p>",
    url: "https://wren.example/@alice",
    uri: "https://wren.example/users/alice",
    avatar: "https://wren.example/media/avatars/alice.png",
    avatar_static: "https://wren.example/media/avatars/alice.png",
    header: "https://wren.example/headers/original/missing.png",
    header_static: "https://wren.example/headers/original/missing.png",
    followers_count: 3,
    following_count: 5,
    statuses_count: 42,
    last_status_at: "2024-03-05",
    hide_collections: null,
    noindex: false,
    emojis: [
      {
        shortcode: "wave",
        url: "https://wren.example/emoji/wave.png",
        static_url: "https://wren.example/emoji/wave.png",
        visible_in_picker: true,
      },
    ],
    roles: [],
    fields: [
      {
        name: "Website",
        value: '<a href="https://alice.example" rel="me">alice.example</a>',
        verified_at: "2024-03-02T10:00:00.000Z",
      },
      { name: "Pronouns", value: "she/her", verified_at: null },
    ],
  };
}

/** The verify_credentials flavour: Account plus `source` and `role`. */
function credentialAccount(): Record<string, unknown> {
  return {
    ...account(),
    source: {
      privacy: "public",
      sensitive: false,
      language: "en",
      note: "Hello, I am Alice.",
      fields: [{ name: "Pronouns", value: "she/her", verified_at: null }],
      follow_requests_count: 0,
      indexable: false,
      hide_collections: null,
      discoverable: true,
      attribution_domains: [],
    },
    role: { id: "-99", name: "", permissions: "65536", color: "", highlighted: false },
  };
}

function without(obj: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...obj };
  delete copy[key];
  return copy;
}

describe("assertMatchesSchema", () => {
  it("knows the entity schema names we rely on", () => {
    const names = schemaNames();
    for (const name of [
      "Account",
      "CredentialAccount",
      "Application",
      "CredentialApplication",
      "Instance",
      "V1Instance",
      "Rule",
      "Error",
      "Token",
    ]) {
      assert.ok(names.includes(name), `missing schema ${name}`);
    }
  });

  it("accepts a valid Account", () => {
    assertMatchesSchema(account(), "Account");
  });

  it("accepts null for nullable Account fields", () => {
    assertMatchesSchema(
      { ...account(), url: null, discoverable: null, last_status_at: null, moved: null },
      "Account",
    );
  });

  it("rejects an Account missing a required field, naming the field", () => {
    assert.throws(() => assertMatchesSchema(without(account(), "acct"), "Account"), {
      name: "AssertionError",
      message: /\$\.acct: is required but missing/,
    });
  });

  it("rejects an Account with a wrong type, naming the path and the value", () => {
    assert.throws(() => assertMatchesSchema({ ...account(), followers_count: "3" }, "Account"), {
      name: "AssertionError",
      message: /\$\.followers_count: must be integer \(got "3"\)/,
    });
    assert.throws(() => assertMatchesSchema({ ...account(), locked: null }, "Account"), {
      name: "AssertionError",
      message: /\$\.locked: must be boolean/,
    });
  });

  it("checks formats and nested $refs", () => {
    assert.throws(() => assertMatchesSchema({ ...account(), created_at: "yesterday" }, "Account"), {
      message: /\$\.created_at: must match format "date-time"/,
    });
    assert.throws(
      () => assertMatchesSchema({ ...account(), fields: [{ name: "Pronouns" }] }, "Account"),
      { message: /\$\.fields\[0\]\.value: is required but missing/ },
    );
  });

  it("names where the failing keyword is written, even in a schema shared by attributes", () => {
    assert.throws(() => assertMatchesSchema({ ...account(), statuses_count: "42" }, "Account"), {
      message:
        /\$\.statuses_count: must be integer.*\[entities\/Account#\/properties\/statuses_count\/type\]/,
    });
  });

  it("lists every error, not just the first", () => {
    assert.throws(
      () =>
        assertMatchesSchema({ ...without(account(), "username"), statuses_count: 1.5 }, "Account"),
      (err: Error) => {
        assert.match(err.message, /\$\.username: is required/);
        assert.match(err.message, /\$\.statuses_count: must be integer/);
        return true;
      },
    );
  });

  it("accepts a valid CredentialAccount and rejects a plain Account as one", () => {
    assertMatchesSchema(credentialAccount(), "CredentialAccount");
    assert.throws(() => assertMatchesSchema(account(), "CredentialAccount"), {
      message: /\$\.source: is required/,
    });
  });

  it("throws for an unknown schema name", () => {
    assert.throws(() => assertMatchesSchema({}, "V1_Instance"), {
      name: "AssertionError",
      message: /No schema named "V1_Instance".*V1Instance/,
    });
  });
});

describe("the schemas themselves", () => {
  /** A schema error (bad keyword, `$ref` to no entity) throws something else than a mismatch. */
  function onlyMismatch(check: () => void): void {
    try {
      check();
    } catch (error) {
      assert.equal((error as Error).name, "AssertionError", String(error));
    }
  }

  it("every entity compiles and every $ref in it names an entity", () => {
    for (const name of schemaNames()) onlyMismatch(() => assertMatchesSchema({}, name));
  });

  it("every operation's response schemas compile and are found by their own path", () => {
    for (const op of operations) {
      const path = op.template.replace(/\{[^}]+\}/g, "1");
      assert.equal(findOperation(op.method, path)?.template, op.template, `${op.method} ${path}`);
      for (const [status, body] of Object.entries(op.responses)) {
        if (body === EMPTY) continue;
        onlyMismatch(() => assertMatchesResponse(op.method, path, Number(status), {}));
      }
    }
  });
});

describe("findOperation", () => {
  it("matches a concrete path to its template", () => {
    assert.deepEqual(findOperation("GET", "/api/v1/accounts/123"), {
      method: "get",
      template: "/api/v1/accounts/{id}",
      operationId: "getAccount",
      params: { id: "123" },
    });
  });

  it("prefers literal segments over templated ones", () => {
    assert.equal(
      findOperation("get", "/api/v1/accounts/verify_credentials")?.template,
      "/api/v1/accounts/verify_credentials",
    );
    assert.equal(
      findOperation("GET", "/api/v1/notifications/requests")?.template,
      "/api/v1/notifications/requests",
    );
    // Both `/api/v2/filters/keywords/{id}` and `/api/v2/filters/{filter_id}/keywords`
    // have a GET and match; the first segment where they differ decides.
    assert.equal(
      findOperation("GET", "/api/v2/filters/keywords/7")?.template,
      "/api/v2/filters/keywords/{id}",
    );
    assert.equal(
      findOperation("GET", "/api/v2/filters/7/keywords")?.template,
      "/api/v2/filters/{filter_id}/keywords",
    );
  });

  it("ignores the query string, origin and a trailing slash", () => {
    assert.equal(
      findOperation("GET", "https://wren.example/api/v1/accounts/9/statuses/?limit=5")?.template,
      "/api/v1/accounts/{id}/statuses",
    );
  });

  it("returns undefined for unknown paths and methods", () => {
    assert.equal(findOperation("GET", "/api/v1/no_such_thing"), undefined);
    assert.equal(findOperation("DELETE", "/api/v1/accounts/123"), undefined);
  });
});

describe("assertMatchesResponse", () => {
  it("validates against the operation's response schema", () => {
    assertMatchesResponse("GET", "/api/v1/accounts/123", 200, account());
    assert.throws(
      () => assertMatchesResponse("GET", "/api/v1/accounts/123", 200, without(account(), "id")),
      {
        name: "AssertionError",
        message:
          /200 response schema of GET \/api\/v1\/accounts\/\{id\} \(Account\)[\s\S]*\$\.id: is required/,
      },
    );
  });

  it("uses the literal verify_credentials route, not /accounts/{id}", () => {
    assertMatchesResponse("GET", "/api/v1/accounts/verify_credentials", 200, credentialAccount());
    // A plain Account would satisfy /accounts/{id}; verify_credentials demands CredentialAccount.
    assert.throws(
      () => assertMatchesResponse("GET", "/api/v1/accounts/verify_credentials", 200, account()),
      { message: /verify_credentials \(CredentialAccount\)[\s\S]*\$\.source: is required/ },
    );
  });

  it("validates array responses item by item", () => {
    const rule = { id: "1", text: "Be kind.", hint: "" };
    assertMatchesResponse("GET", "/api/v1/instance/rules", 200, [rule]);
    assert.throws(
      () => assertMatchesResponse("GET", "/api/v1/instance/rules", 200, [rule, { id: 2 }]),
      (err: Error) => {
        assert.match(err.message, /\$\[1\]\.id: must be string \(got 2\)/);
        assert.match(err.message, /\$\[1\]\.text: is required/);
        return true;
      },
    );
  });

  it("validates documented error responses and falls back to Error for undocumented ones", () => {
    assertMatchesResponse("GET", "/api/v1/accounts/404", 404, { error: "Record not found" });
    assert.throws(() => assertMatchesResponse("GET", "/api/v1/accounts/404", 404, {}), {
      message: /\$\.error: is required/,
    });
    // No error status has a richer body than Error for this operation.
    assertMatchesResponse("GET", "/api/v1/accounts/1", 410, { error: "Gone" });
    assert.throws(() => assertMatchesResponse("GET", "/api/v1/accounts/1", 418, { message: "x" }), {
      message: /schema Error \(generic fallback[\s\S]*\$\.error: is required/,
    });
  });

  it("throws when the path has no such operation", () => {
    assert.throws(() => assertMatchesResponse("GET", "/api/v1/no_such_thing", 200, {}), {
      name: "AssertionError",
      message:
        /No operation in the operations table \(test\/schemas\/operations\.ts\) matches GET \/api\/v1\/no_such_thing/,
    });
    assert.throws(() => assertMatchesResponse("DELETE", "/api/v1/accounts/1", 200, {}), {
      message: /matches only: \/api\/v1\/accounts\/\{id\} \(GET\)/,
    });
  });

  it("throws when the table has no schema for a success response", () => {
    // Documented as "Empty" with no content.
    assert.throws(() => assertMatchesResponse("POST", "/api/v1/notifications/clear", 200, {}), {
      name: "AssertionError",
      message: /has no JSON schema for status 200/,
    });
    // Not documented at all.
    assert.throws(() => assertMatchesResponse("GET", "/api/v1/accounts/1", 204, null), {
      message: /does not document status 204/,
    });
  });
});
