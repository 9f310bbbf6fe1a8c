// GET /api/oembed?url=…: the oEmbed "rich" answer for one of our status pages, which sites and
// apps ask for to embed a post. Only a local, public or unlisted, undeleted status given by one
// of its own addresses (/@user/:id or /users/user/statuses/:id on this origin) is answered;
// anything else is 404, as in Mastodon. Wren has no embeddable page with a script, so `html` is
// a self-contained blockquote quoting the post (escaped) with a link to it.

import type { Hono } from "hono";
import { z } from "zod";
import { notFound } from "../../domain/errors.ts";
import type { Status } from "../../domain/status.ts";
import { loadStatusViews, type StatusView } from "../../views/status-view.ts";
import { visibleToAnyone } from "../../views/visibility.ts";
import type { HttpDeps, HttpEnv } from "../env.ts";
import { readValidParams } from "../params.ts";
import { integerParam } from "../schemas.ts";
import { fullHandle, shownName } from "../web/context.ts";
import { escapeHtml } from "../web/html.ts";
import { htmlToText, truncate } from "../web/text.ts";

const DEFAULT_WIDTH = 400;
const QUOTE_LENGTH = 500;
/** A day, as Mastodon advertises: an edit or deletion reaches embedders within it. */
const CACHE_AGE = 86_400;

const schema = z.object({
  url: z.string().optional(),
  maxwidth: integerParam.optional(),
  maxheight: integerParam.optional(),
});

const STATUS_PATHS = [
  /^\/@([^/@]+)\/([0-9]{1,20})\/?$/,
  /^\/users\/([^/]+)\/statuses\/([0-9]{1,20})\/?$/,
];

/** The username and status id a URL of ours names, or undefined. */
function parseStatusUrl(
  raw: string,
  publicUrl: string,
): { username: string; id: string } | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.origin !== new URL(publicUrl).origin) return undefined;
  for (const pattern of STATUS_PATHS) {
    const match = url.pathname.match(pattern);
    if (match?.[1] && match[2]) return { username: decodeURIComponent(match[1]), id: match[2] };
  }
  return undefined;
}

function embedHtml(view: StatusView, author: string, handle: string): string {
  const { status } = view;
  const quoted =
    status.spoilerText !== ""
      ? `Content warning: ${status.spoilerText}`
      : truncate(htmlToText(status.contentHtml), QUOTE_LENGTH);
  const link = escapeHtml(status.url);
  return `<blockquote class="wren-embed" cite="${link}"><p>${escapeHtml(quoted)}</p>&mdash; ${escapeHtml(author)} (${escapeHtml(handle)}) <a href="${link}">${escapeHtml(status.createdAt)}</a></blockquote>`;
}

export function oembedRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const { ctx } = deps;

  async function findStatus(raw: string | undefined): Promise<Status> {
    const named = raw === undefined ? undefined : parseStatusUrl(raw, ctx.settings.publicUrl);
    if (!named) throw notFound();
    const [status, account] = await Promise.all([
      ctx.storage.statuses.get(named.id),
      ctx.storage.accounts.findByUsername(named.username, null),
    ]);
    const shown =
      status &&
      account &&
      status.accountId === account.id &&
      !status.deleted &&
      status.reblogOfId === null &&
      visibleToAnyone(status);
    if (!shown) throw notFound();
    return status;
  }

  app.get("/api/oembed", async (c) => {
    const params = await readValidParams(c, schema);
    const status = await findStatus(params.url);
    const [view] = await loadStatusViews(ctx, [status], null);
    if (!view) throw notFound();
    const { account } = view.account;
    const author = shownName(account);
    const handle = fullHandle(ctx.settings, account);
    return c.json({
      type: "rich",
      version: "1.0",
      title: `Post by ${handle}`,
      author_name: author,
      author_url: account.url,
      provider_name: ctx.settings.domain,
      provider_url: `${ctx.settings.publicUrl}/`,
      cache_age: CACHE_AGE,
      html: embedHtml(view, author, handle),
      width: params.maxwidth !== undefined && params.maxwidth > 0 ? params.maxwidth : DEFAULT_WIDTH,
      height: params.maxheight !== undefined && params.maxheight > 0 ? params.maxheight : null,
    });
  });
}
