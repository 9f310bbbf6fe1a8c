// Every setting Wren reads, validated once at start. Values come from WREN_* environment variables
// and, optionally, a JSON config file (WREN_CONFIG); the environment wins over the file.
// docs/configuration.md documents each one; keep the two in step.

import { accessSync, constants } from "node:fs";
import { isIP } from "node:net";
import { z } from "zod";

const booleanString = z.union([z.boolean(), z.string()]).transform((v, ctx) => {
  if (typeof v === "boolean") return v;
  const s = v.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(s)) return true;
  if (["0", "false", "no", "off", ""].includes(s)) return false;
  ctx.addIssue({ code: "custom", message: `expected true or false, got "${v}"` });
  return z.NEVER;
});

const positiveInt = z.coerce.number().int().positive();

/** The text as a URL of any scheme, or an issue on the context; the URL settings refine it. */
const anyUrl = z
  .string()
  .trim()
  .transform((v, ctx) => {
    try {
      return new URL(v);
    } catch {
      ctx.addIssue({ code: "custom", message: `"${v}" is not a URL` });
      return z.NEVER;
    }
  });

/** An http(s) URL; the two URL settings below refine it. */
const httpUrl = anyUrl.transform((url, ctx) => {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    ctx.addIssue({ code: "custom", message: "must start with http:// or https://" });
    return z.NEVER;
  }
  return url;
});

const origin = httpUrl.transform((url, ctx) => {
  if (url.pathname !== "/" || url.search || url.hash) {
    ctx.addIssue({ code: "custom", message: "must be an origin only, without a path" });
    return z.NEVER;
  }
  return url.origin;
});

/** An http(s) URL that may have a path (a bucket, a CDN folder); trailing slashes are dropped. */
const baseUrl = httpUrl.transform((url, ctx) => {
  if (url.search || url.hash || url.username || url.password) {
    ctx.addIssue({ code: "custom", message: "must not have a query, fragment or credentials" });
    return z.NEVER;
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
});

/**
 * Where clients open the streaming API: a ws(s):// origin, or the http(s):// origin it is
 * reached at (turned into ws(s)://), without a path (clients add /api/v1/streaming).
 */
const streamingOrigin = anyUrl.transform((url, ctx) => {
  const scheme = { "ws:": "ws:", "wss:": "wss:", "http:": "ws:", "https:": "wss:" }[url.protocol];
  if (!scheme) {
    ctx.addIssue({
      code: "custom",
      message: "must start with wss://, ws://, https:// or http://",
    });
    return z.NEVER;
  }
  if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) {
    ctx.addIssue({ code: "custom", message: "must be an origin only, without a path" });
    return z.NEVER;
  }
  return `${scheme}//${url.host}`;
});

/** An IP address, or a CIDR range such as 10.0.0.0/8 or fd00::/8. */
const addressOrRange = z.string().refine(
  (value) => {
    const [address = "", prefix, extra] = value.split("/");
    const family = isIP(address);
    if (family === 0 || extra !== undefined) return false;
    if (prefix === undefined) return true;
    const bits = Number(prefix);
    return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
  },
  { message: "must be an IP address or a CIDR range (e.g. 10.0.0.0/8)" },
);

/** The two TLS files, each with the variable of the other: one without the other is refused. */
const TLS_FILES = [
  ["tlsCertFile", "WREN_TLS_KEY"],
  ["tlsKeyFile", "WREN_TLS_CERT"],
] as const;

/** Settings the S3 media driver cannot do without. */
const S3_REQUIRED = ["s3Endpoint", "s3Bucket", "s3AccessKeyId", "s3SecretAccessKey"] as const;

export const configSchema = z
  .object({
    host: z.string().min(1).default("127.0.0.1"),
    port: z.coerce.number().int().min(0).max(65535).default(3000),
    dataDir: z.string().min(1).default("./data"),
    publicUrl: origin.default("http://localhost:3000"),
    storage: z.enum(["json-file", "postgres"]).default("json-file"),
    /** postgres:// URL of the database (WREN_STORAGE=postgres). */
    databaseUrl: z
      .string()
      .trim()
      .regex(/^postgres(?:ql)?:\/\//, "must be a postgres:// URL")
      .optional(),
    /**
     * What a serving process does: `web` answers HTTP, `worker` runs the job queue (deliveries,
     * media, schedules), `all` both. Several of each may share one PostgreSQL database.
     */
    role: z.enum(["all", "web", "worker"]).default("all"),
    /**
     * How long a job claimed by a process is kept from the others unless renewed: the longest a
     * killed worker's jobs wait before another takes them over.
     */
    jobLeaseSeconds: z.coerce.number().int().min(5).max(3600).default(300),
    /**
     * How long a request's side effects (its recorded event) are left to the process that answers
     * it before the job runner takes them over: how late they run when that process died.
     */
    eventLeaseSeconds: z.coerce.number().int().min(5).max(3600).default(60),
    /** Connections one Wren process opens at most; all processes together stay under max_connections. */
    databasePoolMax: positiveInt.max(1000).default(10),
    registrations: z.enum(["open", "approval", "closed"]).default("closed"),
    /**
     * The SMTP server that sends sign-up confirmations and password resets, as a URL
     * (`smtp://user:pass@host:587`, `smtps://…:465`). Unset: no mail, accounts are confirmed at once.
     */
    smtpUrl: z
      .string()
      .trim()
      .regex(/^smtps?:\/\/[^/]/, "must be an smtp:// or smtps:// URL")
      .refine((url) => URL.canParse(url), "must be an smtp:// or smtps:// URL")
      .optional(),
    /** The sender of those mails; unset: `notifications@` the instance's domain. */
    smtpFrom: z.string().trim().min(1).optional(),
    instanceTitle: z.string().min(1).default("Wren"),
    instanceDescription: z.string().default("A Wren server."),
    /** Shown as the instance's contact address; unset, the longest-standing admin's email is. */
    contactEmail: z.string().trim().pipe(z.email("must be an email address")).optional(),
    maxStatusCharacters: positiveInt.default(500),
    maxMediaAttachments: positiveInt.default(4),
    maxImageBytes: positiveInt.default(16 * 1024 * 1024),
    bodyLimitBytes: positiveInt.default(1024 * 1024),
    uploadLimitBytes: positiveInt.default(100 * 1024 * 1024),
    /** How long anonymous answers of public API reads are kept in memory; Mastodon lets shared caches keep them 15 s. */
    publicCacheSeconds: z.coerce.number().int().min(0).max(15).default(5),
    /** How long signed-in answers of the common reads are kept in memory per token (ADR 60); 0 keeps none. */
    signedInCacheSeconds: z.coerce.number().int().min(0).max(15).default(5),
    /** What those kept answers may weigh together, in megabytes. */
    signedInCacheMegabytes: positiveInt.default(64),
    rateLimitRequests: positiveInt.default(300),
    rateLimitWindowSeconds: positiveInt.default(300),
    /**
     * scrypt's cost for new password hashes, as log2 of N (15: 32 MiB a hash). Only the tests
     * lower it (every test user costs a hash); existing hashes keep the cost they were made with.
     */
    passwordHashCost: z.coerce.number().int().min(10).max(17).default(15),
    loginRateLimitRequests: positiveInt.default(25),
    loginRateLimitWindowSeconds: positiveInt.default(300),
    loginAccountRateLimitRequests: positiveInt.default(25),
    loginAccountRateLimitWindowSeconds: positiveInt.default(3600),
    accountRateLimitRequests: positiveInt.default(1500),
    /** Callers each in-memory rate limit tracks at most (bounds its memory). */
    rateLimitMaxTrackedKeys: positiveInt.default(100_000),
    statusRateLimitRequests: positiveInt.default(300),
    statusRateLimitWindowSeconds: positiveInt.default(10_800),
    mediaRateLimitRequests: positiveInt.default(30),
    mediaRateLimitWindowSeconds: positiveInt.default(1800),
    followRateLimitRequests: positiveInt.default(400),
    followRateLimitWindowSeconds: positiveInt.default(86_400),
    inboxRateLimitRequests: positiveInt.default(3000),
    inboxSenderRateLimitRequests: positiveInt.default(3000),
    inboxRateLimitWindowSeconds: positiveInt.default(300),
    rules: z.array(z.string().min(1)).default([]),
    /** Who may read the list of blocked domains (GET /api/v1/instance/domain_blocks), as Mastodon's setting. */
    showDomainBlocks: z.enum(["disabled", "users", "all"]).default("disabled"),
    /** Trends show only what a moderator approved (Mastodon's trendable_by_default, inverted). */
    trendsRequireReview: booleanString.default(false),
    /** Federate with every server not blocked, or only with the allowed domains. */
    federationMode: z.enum(["blocklist", "allowlist"]).default("blocklist"),
    /** Proxies (addresses or CIDR ranges) whose X-Forwarded-For is believed. */
    trustedProxies: z.array(addressOrRange).default(["127.0.0.0/8", "::1/128"]),
    logLevel: z.enum(["debug", "info", "warning", "error"]).default("info"),
    logFormat: z.enum(["text", "json"]).default("text"),
    allowPrivateAddresses: booleanString.default(false),
    /**
     * Days after which remote statuses nobody here interacted with are removed (Mastodon's
     * content cache retention period); 0 keeps them forever.
     */
    remoteStatusRetentionDays: z.coerce.number().int().min(0).max(36_500).default(0),
    /** First retry of a failed delivery (later ones double); fractions allowed (tests). */
    deliveryRetrySeconds: z.coerce.number().positive().max(43_200).default(60),
    /** Least time between two tries of a server that is down (its circuit is open). */
    deliveryProbeSeconds: z.coerce.number().positive().max(43_200).default(60),
    /** Where media files live: `local` (the data directory, served by Wren) or `s3`. */
    mediaDriver: z.enum(["local", "s3"]).default("local"),
    /** The streaming API's address in the instance endpoints; the public URL's when unset. */
    streamingUrl: streamingOrigin.optional(),
    /** Base URL of media files as clients fetch them; derived from the driver when unset. */
    mediaPublicUrl: baseUrl.optional(),
    s3Endpoint: baseUrl.optional(),
    s3Region: z.string().trim().min(1).default("us-east-1"),
    s3Bucket: z
      .string()
      .trim()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        "must be an S3 bucket name (3–63 of a-z 0-9 . -)",
      )
      .optional(),
    s3AccessKeyId: z.string().trim().min(1).optional(),
    s3SecretAccessKey: z.string().min(1).optional(),
    /** Address buckets as `endpoint/bucket` (most self-hosted S3-compatible servers want this). */
    s3ForcePathStyle: booleanString.default(true),
    /**
     * Base URL of a LibreTranslate-compatible translation service (its /translate and /languages
     * under it); unset: no translation.
     */
    translationUrl: baseUrl.optional(),
    /** The service's API key, sent with every request when set. */
    translationApiKey: z.string().min(1).optional(),
    /** ffmpeg and ffprobe to run instead of the ones on PATH or from npm (ffmpeg-location.ts). */
    ffmpegPath: z.string().trim().min(1).optional(),
    ffprobePath: z.string().trim().min(1).optional(),
    /** The process's PATH, where a bare `ffmpeg` is looked for (set by loadConfig, not a setting). */
    searchPath: z.string().default(""),
    /** PEM certificate (chain) and private key; with both, Wren serves HTTPS itself. */
    tlsCertFile: z.string().trim().min(1).optional(),
    tlsKeyFile: z.string().trim().min(1).optional(),
  })
  .superRefine((config, ctx) => {
    if (config.storage === "json-file" && config.role !== "all") {
      ctx.addIssue({
        code: "custom",
        path: ["role"],
        message: "web and worker need WREN_STORAGE=postgres (json-file is one process doing both)",
      });
    }
    if (config.storage === "postgres" && config.databaseUrl === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["databaseUrl"],
        message: "required when WREN_STORAGE is postgres",
      });
    }
  })
  .superRefine((config, ctx) => {
    if (config.mediaDriver !== "s3") return;
    for (const key of S3_REQUIRED) {
      if (config[key] === undefined) {
        // The path names the setting, so the message reads "WREN_S3_BUCKET: required when …".
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: "required when WREN_MEDIA_DRIVER is s3",
        });
      }
    }
  })
  .superRefine((config, ctx) => {
    // Half a TLS setup would quietly serve plain HTTP, and an unreadable file would only fail
    // once the server starts listening: both are refused here, with the other start problems.
    if (config.tlsCertFile === undefined && config.tlsKeyFile === undefined) return;
    for (const [key, otherEnv] of TLS_FILES) {
      const path = config[key];
      if (path === undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: `required when ${otherEnv} is set` });
        continue;
      }
      try {
        accessSync(path, constants.R_OK);
      } catch (error) {
        const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        ctx.addIssue({ code: "custom", path: [key], message: `cannot read ${path} (${reason})` });
      }
    }
  });

export type Config = z.output<typeof configSchema>;

/** Environment variable → config key. */
export const ENV_KEYS: Record<string, keyof Config> = {
  WREN_HOST: "host",
  WREN_PORT: "port",
  WREN_DATA_DIR: "dataDir",
  WREN_PUBLIC_URL: "publicUrl",
  WREN_STORAGE: "storage",
  WREN_DATABASE_URL: "databaseUrl",
  WREN_DATABASE_POOL_MAX: "databasePoolMax",
  WREN_ROLE: "role",
  WREN_JOB_LEASE_SECONDS: "jobLeaseSeconds",
  WREN_EVENT_LEASE_SECONDS: "eventLeaseSeconds",
  WREN_REGISTRATIONS: "registrations",
  WREN_SMTP_URL: "smtpUrl",
  WREN_SMTP_FROM: "smtpFrom",
  WREN_INSTANCE_TITLE: "instanceTitle",
  WREN_INSTANCE_DESCRIPTION: "instanceDescription",
  WREN_CONTACT_EMAIL: "contactEmail",
  WREN_SHOW_DOMAIN_BLOCKS: "showDomainBlocks",
  WREN_TRENDS_REQUIRE_REVIEW: "trendsRequireReview",
  WREN_FEDERATION_MODE: "federationMode",
  WREN_MAX_STATUS_CHARACTERS: "maxStatusCharacters",
  WREN_MAX_MEDIA_ATTACHMENTS: "maxMediaAttachments",
  WREN_MAX_IMAGE_BYTES: "maxImageBytes",
  WREN_BODY_LIMIT_BYTES: "bodyLimitBytes",
  WREN_UPLOAD_LIMIT_BYTES: "uploadLimitBytes",
  WREN_PUBLIC_CACHE_SECONDS: "publicCacheSeconds",
  WREN_SIGNED_IN_CACHE_SECONDS: "signedInCacheSeconds",
  WREN_SIGNED_IN_CACHE_MB: "signedInCacheMegabytes",
  WREN_RATE_LIMIT_REQUESTS: "rateLimitRequests",
  WREN_RATE_LIMIT_WINDOW_SECONDS: "rateLimitWindowSeconds",
  WREN_LOGIN_RATE_LIMIT_REQUESTS: "loginRateLimitRequests",
  WREN_LOGIN_RATE_LIMIT_WINDOW_SECONDS: "loginRateLimitWindowSeconds",
  WREN_PASSWORD_HASH_COST: "passwordHashCost",
  WREN_LOGIN_ACCOUNT_RATE_LIMIT_REQUESTS: "loginAccountRateLimitRequests",
  WREN_LOGIN_ACCOUNT_RATE_LIMIT_WINDOW_SECONDS: "loginAccountRateLimitWindowSeconds",
  WREN_ACCOUNT_RATE_LIMIT_REQUESTS: "accountRateLimitRequests",
  WREN_RATE_LIMIT_MAX_TRACKED_KEYS: "rateLimitMaxTrackedKeys",
  WREN_STATUS_RATE_LIMIT_REQUESTS: "statusRateLimitRequests",
  WREN_STATUS_RATE_LIMIT_WINDOW_SECONDS: "statusRateLimitWindowSeconds",
  WREN_MEDIA_RATE_LIMIT_REQUESTS: "mediaRateLimitRequests",
  WREN_MEDIA_RATE_LIMIT_WINDOW_SECONDS: "mediaRateLimitWindowSeconds",
  WREN_FOLLOW_RATE_LIMIT_REQUESTS: "followRateLimitRequests",
  WREN_FOLLOW_RATE_LIMIT_WINDOW_SECONDS: "followRateLimitWindowSeconds",
  WREN_INBOX_RATE_LIMIT_REQUESTS: "inboxRateLimitRequests",
  WREN_INBOX_SENDER_RATE_LIMIT_REQUESTS: "inboxSenderRateLimitRequests",
  WREN_INBOX_RATE_LIMIT_WINDOW_SECONDS: "inboxRateLimitWindowSeconds",
  WREN_LOG_LEVEL: "logLevel",
  WREN_LOG_FORMAT: "logFormat",
  WREN_ALLOW_PRIVATE_ADDRESSES: "allowPrivateAddresses",
  WREN_DELIVERY_RETRY_SECONDS: "deliveryRetrySeconds",
  WREN_DELIVERY_PROBE_SECONDS: "deliveryProbeSeconds",
  WREN_REMOTE_STATUS_RETENTION_DAYS: "remoteStatusRetentionDays",
  WREN_MEDIA_DRIVER: "mediaDriver",
  WREN_MEDIA_PUBLIC_URL: "mediaPublicUrl",
  WREN_STREAMING_URL: "streamingUrl",
  WREN_S3_ENDPOINT: "s3Endpoint",
  WREN_S3_REGION: "s3Region",
  WREN_S3_BUCKET: "s3Bucket",
  WREN_S3_ACCESS_KEY_ID: "s3AccessKeyId",
  WREN_S3_SECRET_ACCESS_KEY: "s3SecretAccessKey",
  WREN_S3_FORCE_PATH_STYLE: "s3ForcePathStyle",
  WREN_TRANSLATION_URL: "translationUrl",
  WREN_TRANSLATION_API_KEY: "translationApiKey",
  WREN_FFMPEG_PATH: "ffmpegPath",
  WREN_FFPROBE_PATH: "ffprobePath",
  WREN_TLS_CERT: "tlsCertFile",
  WREN_TLS_KEY: "tlsKeyFile",
};
