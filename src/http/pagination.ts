// Mastodon's list pagination: `limit`, `max_id`, `since_id`, `min_id` in, a `Link` header with
// `next` (older) and `prev` (newer) out. Lists paged by something other than the returned
// entities' ids (favourites by favourite id, followers by follow id) pass those ids explicitly.

import type { Context } from "hono";
import { z } from "zod";
import type { IdPage } from "../storage/ports.ts";
import type { HttpEnv } from "./env.ts";
import { setResponseHeaders } from "./middleware/response-headers.ts";
import { requestTarget } from "./request-target.ts";
import { idParam, limitParam } from "./schemas.ts";

/**
 * A blank parameter (`?max_id=&limit=`, as apps that fill a URL template send) is an absent
 * one, as in Mastodon (Rails' `present?`), rather than a 422.
 */
function blankAsAbsent<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === "" ? undefined : v), schema);
}

/** Query fields of a paged list; merge into an endpoint's schema with `.extend(pageFields(…))`. */
export function pageFields(defaultLimit = 20, maxLimit = 40) {
  return {
    max_id: blankAsAbsent(idParam.optional()),
    since_id: blankAsAbsent(idParam.optional()),
    min_id: blankAsAbsent(idParam.optional()),
    limit: blankAsAbsent(limitParam(defaultLimit, maxLimit)),
  };
}

export const pageSchema = z.object(pageFields());

export function toIdPage(params: {
  max_id?: string | undefined;
  since_id?: string | undefined;
  min_id?: string | undefined;
  limit: number;
}): IdPage {
  return {
    limit: params.limit,
    maxId: params.max_id,
    sinceId: params.since_id,
    minId: params.min_id,
  };
}

const origins = new Map<string, string>();

/** The configured public URL's origin (links name Wren's own host, never the request's). */
function originOf(publicUrl: string): string {
  let origin = origins.get(publicUrl);
  if (origin === undefined) {
    origin = new URL(publicUrl).origin;
    origins.set(publicUrl, origin);
  }
  return origin;
}

const CARRIED_NAME = /^[a-z_]{1,40}(\[\])?$/;
const MAX_CARRIED_VALUE = 100;

/**
 * Sets the Link header for a page whose newest item has paging id `newestId` and oldest
 * `oldestId` (both undefined for an empty page: no header, as Mastodon does).
 */
export function setLinkHeader(
  c: Context<HttpEnv>,
  publicUrl: string,
  ids: { newestId: string | undefined; oldestId: string | undefined },
): void {
  if (ids.newestId === undefined || ids.oldestId === undefined) return;
  const link = linkMaker(c, publicUrl, ["max_id", "min_id", "since_id"]);
  // Straight onto Node's response: c.header() would make Hono build a web Headers object.
  setResponseHeaders(c, {
    Link: [link("next", "max_id", ids.oldestId), link("prev", "min_id", ids.newestId)].join(", "),
  });
}

/**
 * The Link header of a list paged by `offset` (trends): `next` while the page came full, `prev`
 * past the first page.
 */
export function setOffsetLinkHeader(
  c: Context<HttpEnv>,
  publicUrl: string,
  page: { offset: number; limit: number; count: number },
): void {
  const link = linkMaker(c, publicUrl, ["offset"]);
  const links: string[] = [];
  if (page.count >= page.limit)
    links.push(link("next", "offset", String(page.offset + page.limit)));
  if (page.offset > 0) {
    links.push(link("prev", "offset", String(Math.max(0, page.offset - page.limit))));
  }
  if (links.length > 0) setResponseHeaders(c, { Link: links.join(", ") });
}

/** Builds links to the request's own list with one paging parameter replaced. */
function linkMaker(c: Context<HttpEnv>, publicUrl: string, pagingNames: readonly string[]) {
  const { path, query } = requestTarget(c);
  const search = new URLSearchParams(query);
  const base = `${originOf(publicUrl)}${path}`;
  // The list's own filters (only_media, types[]…) carry over; paging parameters are replaced,
  // and anything that cannot be a filter (odd names, long values) is left behind, so a hostile
  // query cannot blow the header past what clients accept.
  const carried: [string, string][] = [];
  for (const [name, value] of search) {
    if (pagingNames.includes(name)) continue;
    if (!CARRIED_NAME.test(name) || value.length > MAX_CARRIED_VALUE) continue;
    carried.push([name, value]);
  }
  // Built as strings: URL objects per link were a few percent of a timeline request.
  return (rel: "next" | "prev", key: string, value: string) => {
    const query = new URLSearchParams(carried);
    query.set(key, value);
    return `<${base}?${query}>; rel="${rel}"`;
  };
}
