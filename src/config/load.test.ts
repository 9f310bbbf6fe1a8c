import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { ConfigError, loadConfig } from "./load.ts";
import { ENV_KEYS } from "./schema.ts";

/** The problems of a ConfigError thrown by `load`, or a failure if nothing is thrown. */
function problemsOf(load: () => unknown): string[] {
  try {
    load();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
    return error.problems;
  }
  assert.fail("expected a ConfigError");
}

describe("loadConfig", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-config-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("has defaults that start a server on loopback with the embedded storage", () => {
    const config = loadConfig({});
    assert.equal(config.host, "127.0.0.1");
    assert.equal(config.port, 3000);
    assert.equal(config.publicUrl, "http://localhost:3000");
    assert.equal(config.storage, "json-file");
    assert.equal(config.registrations, "closed");
    assert.equal(config.logLevel, "info");
    assert.equal(config.logFormat, "text");
    assert.equal(config.allowPrivateAddresses, false);
    assert.deepEqual(config.rules, []);
    // Relative data directories are resolved once, so later chdir()s cannot move the data.
    assert.equal(config.dataDir, resolve("./data"));
  });

  it("reads WREN_* variables and coerces their types", () => {
    const config = loadConfig({
      WREN_HOST: "0.0.0.0",
      WREN_PORT: "8080",
      WREN_DATA_DIR: dir,
      WREN_PUBLIC_URL: "https://social.example/",
      WREN_MAX_STATUS_CHARACTERS: "1000",
      WREN_ALLOW_PRIVATE_ADDRESSES: "yes",
      WREN_LOG_FORMAT: "json",
      WREN_RULES: "Be kind\n\nNo spam\n",
    });
    assert.equal(config.host, "0.0.0.0");
    assert.equal(config.port, 8080);
    assert.equal(config.dataDir, dir);
    assert.equal(config.publicUrl, "https://social.example");
    assert.equal(config.maxStatusCharacters, 1000);
    assert.equal(config.allowPrivateAddresses, true);
    assert.equal(config.logFormat, "json");
    assert.deepEqual(config.rules, ["Be kind", "No spam"]);
  });

  it("has Mastodon's rate limits by default and reads each of them", () => {
    const config = loadConfig({});
    assert.equal(config.statusRateLimitRequests, 300);
    assert.equal(config.statusRateLimitWindowSeconds, 3 * 3600);
    assert.equal(config.mediaRateLimitRequests, 30);
    assert.equal(config.mediaRateLimitWindowSeconds, 1800);
    assert.equal(config.followRateLimitRequests, 400);
    assert.equal(config.followRateLimitWindowSeconds, 86_400);
    assert.equal(config.rateLimitMaxTrackedKeys, 100_000);
    const set = loadConfig({
      WREN_RATE_LIMIT_MAX_TRACKED_KEYS: "10",
      WREN_INBOX_RATE_LIMIT_REQUESTS: "11",
      WREN_INBOX_SENDER_RATE_LIMIT_REQUESTS: "12",
      WREN_INBOX_RATE_LIMIT_WINDOW_SECONDS: "13",
    });
    assert.equal(set.rateLimitMaxTrackedKeys, 10);
    assert.equal(set.inboxRateLimitRequests, 11);
    assert.equal(set.inboxSenderRateLimitRequests, 12);
    assert.equal(set.inboxRateLimitWindowSeconds, 13);
    assert.match(
      problemsOf(() => loadConfig({ WREN_STATUS_RATE_LIMIT_REQUESTS: "0" }))[0] ?? "",
      /^WREN_STATUS_RATE_LIMIT_REQUESTS:/,
    );
  });

  it("treats an empty variable as unset", () => {
    assert.equal(loadConfig({ WREN_PORT: "" }).port, 3000);
  });

  it("reads the JSON file named by WREN_CONFIG, with the environment winning", async () => {
    const file = join(dir, "wren.json");
    await writeFile(
      file,
      JSON.stringify({
        port: 4000,
        instanceTitle: "From file",
        rules: ["One"],
        registrations: "open",
      }),
    );
    const fromFile = loadConfig({ WREN_CONFIG: file });
    assert.equal(fromFile.port, 4000);
    assert.equal(fromFile.instanceTitle, "From file");
    assert.deepEqual(fromFile.rules, ["One"]);
    assert.equal(fromFile.registrations, "open");

    const both = loadConfig({ WREN_CONFIG: file, WREN_PORT: "5000" });
    assert.equal(both.port, 5000);
    assert.equal(both.instanceTitle, "From file");
  });

  it("names the variable of every bad value", () => {
    const problems = problemsOf(() =>
      loadConfig({ WREN_PORT: "abc", WREN_REGISTRATIONS: "maybe", WREN_LOG_LEVEL: "loud" }),
    );
    assert.equal(problems.length, 3);
    assert.ok(
      problems.some((p) => p.startsWith("WREN_PORT:")),
      problems.join("\n"),
    );
    assert.ok(
      problems.some((p) => p.startsWith("WREN_REGISTRATIONS:")),
      problems.join("\n"),
    );
    assert.ok(
      problems.some((p) => p.startsWith("WREN_LOG_LEVEL:")),
      problems.join("\n"),
    );
  });

  it("refuses out-of-range numbers and unclear booleans", () => {
    assert.match(problemsOf(() => loadConfig({ WREN_PORT: "70000" }))[0] ?? "", /^WREN_PORT:/);
    assert.match(
      problemsOf(() => loadConfig({ WREN_MAX_MEDIA_ATTACHMENTS: "0" }))[0] ?? "",
      /^WREN_MAX_MEDIA_ATTACHMENTS:/,
    );
    assert.match(
      problemsOf(() => loadConfig({ WREN_ALLOW_PRIVATE_ADDRESSES: "perhaps" }))[0] ?? "",
      /^WREN_ALLOW_PRIVATE_ADDRESSES: .*perhaps/,
    );
  });

  it("reads the delivery retry and probe delays, a minute each by default", () => {
    assert.equal(loadConfig({}).deliveryRetrySeconds, 60);
    assert.equal(loadConfig({}).deliveryProbeSeconds, 60);
    const config = loadConfig({
      WREN_DELIVERY_RETRY_SECONDS: "0.5",
      WREN_DELIVERY_PROBE_SECONDS: "300",
    });
    assert.equal(config.deliveryRetrySeconds, 0.5);
    assert.equal(config.deliveryProbeSeconds, 300);
    for (const bad of ["0", "-1", "soon", "86400"]) {
      assert.match(
        problemsOf(() => loadConfig({ WREN_DELIVERY_PROBE_SECONDS: bad }))[0] ?? "",
        /^WREN_DELIVERY_PROBE_SECONDS:/,
      );
    }
  });

  it("reads the job and event leases, five minutes and one by default, five seconds at least", () => {
    assert.equal(loadConfig({}).jobLeaseSeconds, 300);
    assert.equal(loadConfig({}).eventLeaseSeconds, 60);
    const config = loadConfig({ WREN_JOB_LEASE_SECONDS: "5", WREN_EVENT_LEASE_SECONDS: "7" });
    assert.equal(config.jobLeaseSeconds, 5);
    assert.equal(config.eventLeaseSeconds, 7);
    for (const bad of ["4", "2.5", "3601", "soon"]) {
      assert.match(
        problemsOf(() => loadConfig({ WREN_JOB_LEASE_SECONDS: bad }))[0] ?? "",
        /^WREN_JOB_LEASE_SECONDS:/,
      );
      assert.match(
        problemsOf(() => loadConfig({ WREN_EVENT_LEASE_SECONDS: bad }))[0] ?? "",
        /^WREN_EVENT_LEASE_SECONDS:/,
      );
    }
  });

  it("reads the remote status retention in days, keeping everything by default", () => {
    assert.equal(loadConfig({}).remoteStatusRetentionDays, 0);
    assert.equal(
      loadConfig({ WREN_REMOTE_STATUS_RETENTION_DAYS: "30" }).remoteStatusRetentionDays,
      30,
    );
    for (const bad of ["-1", "1.5", "soon"]) {
      assert.match(
        problemsOf(() => loadConfig({ WREN_REMOTE_STATUS_RETENTION_DAYS: bad }))[0] ?? "",
        /^WREN_REMOTE_STATUS_RETENTION_DAYS:/,
      );
    }
  });

  it("reads the translation service's base URL and API key, none by default", () => {
    const none = loadConfig({});
    assert.equal(none.translationUrl, undefined);
    assert.equal(none.translationApiKey, undefined);
    const config = loadConfig({
      WREN_TRANSLATION_URL: "http://127.0.0.1:5000/libre/",
      WREN_TRANSLATION_API_KEY: "k3y",
    });
    assert.equal(config.translationUrl, "http://127.0.0.1:5000/libre");
    assert.equal(config.translationApiKey, "k3y");
    for (const bad of ["libretranslate", "ftp://translate.example", "https://t.example/?x=1"]) {
      assert.match(
        problemsOf(() => loadConfig({ WREN_TRANSLATION_URL: bad }))[0] ?? "",
        /^WREN_TRANSLATION_URL:/,
      );
    }
  });

  it("takes a contact address only when it is an email address", () => {
    assert.equal(loadConfig({}).contactEmail, undefined);
    assert.equal(
      loadConfig({ WREN_CONTACT_EMAIL: " ops@social.example " }).contactEmail,
      "ops@social.example",
    );
    assert.deepEqual(
      problemsOf(() => loadConfig({ WREN_CONTACT_EMAIL: "ops at social.example" })),
      ["WREN_CONTACT_EMAIL: must be an email address"],
    );
  });

  it("rejects a public URL with a path, or one that is not http(s)", () => {
    assert.match(
      problemsOf(() => loadConfig({ WREN_PUBLIC_URL: "https://example.com/wren" }))[0] ?? "",
      /^WREN_PUBLIC_URL: .*without a path/,
    );
    assert.match(
      problemsOf(() => loadConfig({ WREN_PUBLIC_URL: "ftp://example.com" }))[0] ?? "",
      /^WREN_PUBLIC_URL:/,
    );
    assert.match(
      problemsOf(() => loadConfig({ WREN_PUBLIC_URL: "not a url" }))[0] ?? "",
      /^WREN_PUBLIC_URL:/,
    );
  });

  it("names the config-file key of a bad value that came from the file", async () => {
    const file = join(dir, "bad.json");
    await writeFile(file, JSON.stringify({ port: "many" }));
    // Reported under the variable's name, which is also how the docs list the setting.
    assert.match(problemsOf(() => loadConfig({ WREN_CONFIG: file }))[0] ?? "", /^WREN_PORT:/);
  });

  it("refuses unknown keys in the file, a missing file, and JSON that is not an object", async () => {
    const unknown = join(dir, "unknown.json");
    await writeFile(unknown, JSON.stringify({ prot: 3000 }));
    assert.match(problemsOf(() => loadConfig({ WREN_CONFIG: unknown })).join("\n"), /prot/);

    const missing = join(dir, "missing.json");
    assert.match(problemsOf(() => loadConfig({ WREN_CONFIG: missing }))[0] ?? "", /^WREN_CONFIG:/);

    const array = join(dir, "array.json");
    await writeFile(array, "[1, 2]");
    assert.match(problemsOf(() => loadConfig({ WREN_CONFIG: array }))[0] ?? "", /^WREN_CONFIG:/);

    const broken = join(dir, "broken.json");
    await writeFile(broken, "{ port: 1");
    assert.match(problemsOf(() => loadConfig({ WREN_CONFIG: broken }))[0] ?? "", /^WREN_CONFIG:/);
  });

  it("puts every problem in the error message, one per line", () => {
    try {
      loadConfig({ WREN_PORT: "abc", WREN_STORAGE: "floppy" });
      assert.fail("expected a ConfigError");
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      assert.match(
        error.message,
        /^Invalid configuration:\n {2}- WREN_PORT: .*\n {2}- WREN_STORAGE: /,
      );
    }
  });

  it("maps every variable to a distinct setting", () => {
    const keys = Object.values(ENV_KEYS);
    assert.equal(new Set(keys).size, keys.length);
    for (const name of Object.keys(ENV_KEYS)) assert.match(name, /^WREN_[A-Z][A-Z0-9_]*$/);
  });
});

describe("trusted proxies", () => {
  it("default to loopback and accept addresses and ranges, or none", () => {
    assert.deepEqual(loadConfig({}).trustedProxies, ["127.0.0.0/8", "::1/128"]);
    assert.deepEqual(
      loadConfig({ WREN_TRUSTED_PROXIES: "10.0.0.0/8, fd00::/8 192.0.2.1" }).trustedProxies,
      ["10.0.0.0/8", "fd00::/8", "192.0.2.1"],
    );
    assert.deepEqual(loadConfig({ WREN_TRUSTED_PROXIES: "none" }).trustedProxies, []);
  });

  it("refuse what is not an address or range, naming the variable", () => {
    for (const bad of ["proxy.local", "10.0.0.0/33", "::1/129", "1.2.3.4/8/9"]) {
      assert.throws(
        () => loadConfig({ WREN_TRUSTED_PROXIES: bad }),
        (error: unknown) =>
          error instanceof ConfigError && /WREN_TRUSTED_PROXIES/.test(error.message),
        bad,
      );
    }
  });
});

describe("media storage", () => {
  const s3 = {
    WREN_MEDIA_DRIVER: "s3",
    WREN_S3_ENDPOINT: "http://127.0.0.1:9000/",
    WREN_S3_BUCKET: "wren-media",
    WREN_S3_ACCESS_KEY_ID: "key",
    WREN_S3_SECRET_ACCESS_KEY: "secret",
  };

  it("defaults to the local directory with no public media URL of its own", () => {
    const config = loadConfig({});
    assert.equal(config.mediaDriver, "local");
    assert.equal(config.mediaPublicUrl, undefined);
    assert.equal(config.s3Region, "us-east-1");
    assert.equal(config.s3ForcePathStyle, true);
  });

  it("reads the S3 settings, dropping trailing slashes from URLs", () => {
    const config = loadConfig({
      ...s3,
      WREN_S3_REGION: "eu-central-1",
      WREN_S3_FORCE_PATH_STYLE: "false",
      WREN_MEDIA_PUBLIC_URL: "https://media.social.example/files/",
    });
    assert.equal(config.mediaDriver, "s3");
    assert.equal(config.s3Endpoint, "http://127.0.0.1:9000");
    assert.equal(config.s3Bucket, "wren-media");
    assert.equal(config.s3AccessKeyId, "key");
    assert.equal(config.s3SecretAccessKey, "secret");
    assert.equal(config.s3Region, "eu-central-1");
    assert.equal(config.s3ForcePathStyle, false);
    assert.equal(config.mediaPublicUrl, "https://media.social.example/files");
  });

  it("names every missing S3 setting when the s3 driver is chosen", () => {
    const problems = problemsOf(() => loadConfig({ WREN_MEDIA_DRIVER: "s3" }));
    assert.deepEqual(problems.sort(), [
      "WREN_S3_ACCESS_KEY_ID: required when WREN_MEDIA_DRIVER is s3",
      "WREN_S3_BUCKET: required when WREN_MEDIA_DRIVER is s3",
      "WREN_S3_ENDPOINT: required when WREN_MEDIA_DRIVER is s3",
      "WREN_S3_SECRET_ACCESS_KEY: required when WREN_MEDIA_DRIVER is s3",
    ]);
    const { WREN_S3_BUCKET: _, ...withoutBucket } = s3;
    assert.deepEqual(
      problemsOf(() => loadConfig(withoutBucket)),
      ["WREN_S3_BUCKET: required when WREN_MEDIA_DRIVER is s3"],
    );
  });

  it("does not ask for S3 settings with the local driver", () => {
    assert.equal(loadConfig({ WREN_S3_BUCKET: "unused-bucket" }).mediaDriver, "local");
  });

  it("refuses an unknown driver, a bad bucket name and URLs that are not http(s)", () => {
    assert.match(
      problemsOf(() => loadConfig({ WREN_MEDIA_DRIVER: "ftp" }))[0] ?? "",
      /^WREN_MEDIA_DRIVER:/,
    );
    assert.match(
      problemsOf(() => loadConfig({ ...s3, WREN_S3_BUCKET: "Bad_Bucket" }))[0] ?? "",
      /^WREN_S3_BUCKET: .*bucket name/,
    );
    assert.match(
      problemsOf(() => loadConfig({ ...s3, WREN_S3_ENDPOINT: "s3.example.com" }))[0] ?? "",
      /^WREN_S3_ENDPOINT: .*not a URL/,
    );
    assert.match(
      problemsOf(() => loadConfig({ WREN_MEDIA_PUBLIC_URL: "ftp://media.example" }))[0] ?? "",
      /^WREN_MEDIA_PUBLIC_URL: .*http/,
    );
    assert.match(
      problemsOf(() => loadConfig({ WREN_MEDIA_PUBLIC_URL: "https://media.example/?a=1" }))[0] ??
        "",
      /^WREN_MEDIA_PUBLIC_URL: .*query/,
    );
    assert.match(
      problemsOf(() => loadConfig({ ...s3, WREN_S3_FORCE_PATH_STYLE: "sometimes" }))[0] ?? "",
      /^WREN_S3_FORCE_PATH_STYLE:/,
    );
  });
});

describe("federation mode", () => {
  it("defaults to blocklist, takes allowlist, refuses anything else naming the variable", () => {
    assert.equal(loadConfig({}).federationMode, "blocklist");
    assert.equal(loadConfig({ WREN_FEDERATION_MODE: "allowlist" }).federationMode, "allowlist");
    assert.throws(
      () => loadConfig({ WREN_FEDERATION_MODE: "open" }),
      (error: unknown) =>
        error instanceof ConfigError && /WREN_FEDERATION_MODE/.test(error.message),
    );
  });
});
