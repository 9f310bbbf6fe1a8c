// Request parameters as Mastodon (a Rails app) reads them: query string and body merged, with
// bracketed keys building arrays and objects: `id[]=1&id[]=2`, `poll[options][]=a`,
// `fields_attributes[0][name]=x`, `keywords_attributes[][keyword]=x`. Clients send JSON, url-encoded and multipart bodies to the same
// endpoints, so every write endpoint goes through here.

import type { Context } from "hono";
import type { ZodType } from "zod";
import { badRequest, unprocessable } from "../domain/errors.ts";
import { LruCache } from "../domain/lru-cache.ts";
import type { HttpEnv } from "./env.ts";
import { parseExactJson } from "./exact-json.ts";
import { requestTarget } from "./request-target.ts";

export type Params = Record<string, unknown>;

const MAX_PARAMS = 1000;
const MAX_DEPTH = 8;
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

function splitKey(key: string): string[] {
  const open = key.indexOf("[");
  if (open <= 0) return [key];
  const path = [key.slice(0, open)];
  const rest = key.slice(open);
  const segments = rest.match(/\[([^[\]]*)\]/g);
  // Anything that is not a clean run of [..] groups is kept as a flat key, as Rails does.
  if (!segments || segments.join("") !== rest) return [key];
  for (const segment of segments) path.push(segment.slice(1, -1));
  return path;
}

function assign(target: Params, key: string, value: unknown): void {
  const path = splitKey(key);
  if (path.length > MAX_DEPTH) throw badRequest(`Parameter nesting too deep: ${key}`);
  if (path.some((p) => FORBIDDEN_KEYS.has(p))) throw badRequest(`Invalid parameter name: ${key}`);
  let node: Params = target;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i] as string;
    const last = i === path.length - 1;
    const nextIsList = path[i + 1] === "";
    if (segment === "") {
      // `[]`: only meaningful at the end, or as `a[][b]` (a list of objects, below).
      throw badRequest(`Unsupported parameter name: ${key}`);
    }
    if (nextIsList && i + 3 === path.length) {
      // `a[][b]=x`, Rails' list of objects (`keywords_attributes[][keyword]`): the value goes
      // into the list's last object unless that already has `b`, which starts a new object.
      const field = path[i + 2] as string;
      const existing = node[segment];
      const list = Array.isArray(existing) ? existing : [];
      node[segment] = list;
      const lastItem: unknown = list[list.length - 1];
      if (
        lastItem !== null &&
        typeof lastItem === "object" &&
        !Array.isArray(lastItem) &&
        !(field in lastItem)
      ) {
        (lastItem as Params)[field] = value;
      } else {
        const created: Params = Object.create(null);
        created[field] = value;
        list.push(created);
      }
      return;
    }
    if (last) {
      node[segment] = value;
      return;
    }
    if (nextIsList && i + 1 === path.length - 1) {
      const existing = node[segment];
      if (Array.isArray(existing)) existing.push(value);
      else node[segment] = [value];
      return;
    }
    const child = node[segment];
    if (
      child === undefined ||
      child === null ||
      typeof child !== "object" ||
      Array.isArray(child)
    ) {
      const created: Params = Object.create(null);
      node[segment] = created;
      node = created;
    } else {
      node = child as Params;
    }
  }
}

/** Builds a nested parameter object from flat `[key, value]` pairs. */
export function nestParams(entries: Iterable<[string, unknown]>, into?: Params): Params {
  const out: Params = into ?? Object.create(null);
  let count = 0;
  for (const [key, value] of entries) {
    if (++count > MAX_PARAMS) throw badRequest("Too many parameters");
    assign(out, key, value);
  }
  return out;
}

async function readBody(c: Context<HttpEnv>): Promise<Params | undefined> {
  const method = c.req.method;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return undefined;
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (type.startsWith("application/json") || type.endsWith("+json")) {
    const text = await c.req.text();
    if (text.trim() === "") return undefined;
    let parsed: unknown;
    try {
      parsed = parseExactJson(text);
    } catch {
      throw badRequest("The request body is not valid JSON");
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw badRequest("The request body must be a JSON object");
    }
    // JSON bodies may still use bracketed keys (some clients send `{"id[]": [...]}`).
    return nestParams(
      Object.entries(parsed as Params).map(([k, v]) => [k.replace(/\[\]$/, ""), v]),
    );
  }
  if (type.startsWith("application/x-www-form-urlencoded")) {
    return nestParams(new URLSearchParams(await c.req.text()));
  }
  if (type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await c.req.formData();
    } catch {
      throw badRequest("The multipart body could not be read");
    }
    return nestParams(form.entries());
  }
  return undefined;
}

const CACHE_KEY = Symbol("wren.params");

/**
 * All parameters of the request: query string, then the body on top (body wins), as one nested
 * object. Files from multipart bodies are `File` values. Read once and cached on the request.
 */
export async function readParams(c: Context<HttpEnv>): Promise<Params> {
  const holder = c.req.raw as unknown as Record<symbol, Params | undefined>;
  const cached = holder[CACHE_KEY];
  if (cached) return cached;
  const url = new URL(c.req.url);
  const params = nestParams(url.searchParams);
  const body = await readBody(c);
  if (body) Object.assign(params, body);
  holder[CACHE_KEY] = params;
  return params;
}

/**
 * Validates parameters with an endpoint's zod schema. A failure is a 422 naming the fields,
 * the way Mastodon reports validation errors.
 */
export function validate<T>(schema: ZodType<T>, params: unknown): T {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => {
    const field = issue.path.map(String).join(".");
    return field ? `${field} ${issue.message}` : issue.message;
  });
  throw unprocessable(`Validation failed: ${details.join(", ")}`);
}

/**
 * Validated parameters of GET and HEAD requests, per schema and query string. Such a request's
 * parameters are its query alone, and validating the same query with the same schema always
 * gives the same value, so a client paging a timeline (the same `?limit=20` again and again) pays
 * for the URL parse, the nesting and zod once. Only flat values (no list or object inside) are
 * kept, and each caller gets its own copy: nothing a caller does to its parameters reaches the
 * next request. Bounded per schema; long queries are not kept.
 */
const validQueries = new WeakMap<ZodType, LruCache<string, Params>>();
const KEPT_QUERIES = 500;
const MAX_KEPT_QUERY = 512;

function isFlat(value: unknown): value is Params {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  for (const field of Object.values(value)) {
    if (field !== null && typeof field === "object") return false;
  }
  return true;
}

/** Reads and validates in one step. */
export async function readValidParams<T>(c: Context<HttpEnv>, schema: ZodType<T>): Promise<T> {
  const method = c.req.method;
  if (method !== "GET" && method !== "HEAD") return validate(schema, await readParams(c));
  const { query } = requestTarget(c);
  if (query.length > MAX_KEPT_QUERY) return validate(schema, await readParams(c));
  let kept = validQueries.get(schema);
  if (kept === undefined) {
    kept = new LruCache(KEPT_QUERIES);
    validQueries.set(schema, kept);
  }
  const hit = kept.get(query);
  if (hit !== undefined) return { ...hit } as T;
  const value = validate(schema, await readParams(c));
  if (isFlat(value)) kept.set(query, { ...value });
  return value;
}
