// The feeds: /@name.rss and /@name.atom (a local account's newest public and unlisted posts, no
// replies and no boosts, as Mastodon's account feed), /@name/tagged/:tag.rss|.atom (those with a
// hashtag, for featured tags), and /tags/:name.rss|.atom (the newest public posts with a
// hashtag, `?local=true` for this server's only). Anonymous, so nothing depends on the reader.
// Registered before the pages, whose /@name and /tags/:name patterns would also match.

import type { Context, Hono } from "hono";
import type { Account } from "../../domain/account.ts";
import { findListedLocalAccount } from "../../services/accounts/listed-account.ts";
import { parseTagName } from "../../services/tags/tag-name.ts";
import { accountStatuses } from "../../services/timelines/account-statuses.ts";
import { tagTimeline } from "../../services/timelines/tag.ts";
import { loadResolvedViews, type StatusView } from "../../views/status-view.ts";
import type { HttpDeps, HttpEnv } from "../env.ts";
import { avatarUrl, fullHandle, newWebContext, shownName } from "./context.ts";
import { errorPage } from "./error-page.ts";
import { atomFeed, type FeedHead, type FeedFormat as Format, feedUrl, rssFeed } from "./feeds.ts";
import { tagPageUrl } from "./tag-page.ts";

const FEED_SIZE = 20;
const FEED_NAME = /^(.+)\.(rss|atom)$/;

const CONTENT_TYPES: Record<Format, string> = {
  rss: "application/rss+xml; charset=utf-8",
  atom: "application/atom+xml; charset=utf-8",
};

/** "alice.rss" → { name: "alice", format: "rss" }. */
function splitFeedName(raw: string): { name: string; format: Format } | undefined {
  const match = raw.match(FEED_NAME);
  if (!match?.[1]) return undefined;
  return { name: match[1], format: match[2] === "atom" ? "atom" : "rss" };
}

export function feedRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const { ctx } = deps;
  const siteName = ctx.settings.title;

  function send(c: Context<HttpEnv>, format: Format, head: FeedHead, views: StatusView[]) {
    const w = newWebContext(ctx);
    const body =
      format === "rss"
        ? rssFeed(w, head, views)
        : atomFeed(w, head, views, ctx.clock.now().toISOString());
    c.header("Content-Type", CONTENT_TYPES[format]);
    c.header("X-Content-Type-Options", "nosniff");
    // Public, but a deleted post must leave the feed at once: readers always revalidate.
    c.header("Cache-Control", "public, no-cache");
    return c.body(body, 200);
  }

  async function accountFeed(
    c: Context<HttpEnv>,
    account: Account,
    format: Format,
    tagged?: string,
  ): Promise<Response> {
    const page = await accountStatuses(
      ctx,
      null,
      account.id,
      { excludeReplies: true, excludeReblogs: true, ...(tagged ? { tagged } : {}) },
      { limit: FEED_SIZE },
    );
    const views = await loadResolvedViews(ctx, page, null);
    const w = newWebContext(ctx);
    const pageUrl =
      tagged === undefined ? account.url : `${account.url}/tagged/${encodeURIComponent(tagged)}`;
    const handle = fullHandle(w, account);
    return send(
      c,
      format,
      {
        title: tagged === undefined ? shownName(account) : `${shownName(account)} #${tagged}`,
        description: `Public posts from ${handle}`,
        pageUrl,
        selfUrl: feedUrl(pageUrl, format),
        image: avatarUrl(w, account),
      },
      views,
    );
  }

  async function localAccount(username: string): Promise<Account | undefined> {
    return findListedLocalAccount(ctx, username);
  }

  app.get("/:feed{@[^/@]+\\.(?:rss|atom)}", async (c) => {
    const feed = splitFeedName(c.req.param("feed").slice(1));
    const account = feed ? await localAccount(feed.name) : undefined;
    if (!feed || !account) return errorPage(c, 404, siteName);
    return accountFeed(c, account, feed.format);
  });

  app.get("/:handle{@[^/@]+}/tagged/:feed{[^/]+\\.(?:rss|atom)}", async (c) => {
    const feed = splitFeedName(c.req.param("feed"));
    const tag = feed ? parseTagName(feed.name) : null;
    const account = await localAccount(c.req.param("handle").slice(1));
    if (!feed || !tag || !account) return errorPage(c, 404, siteName);
    return accountFeed(c, account, feed.format, tag.normalized);
  });

  app.get("/tags/:feed{[^/]+\\.(?:rss|atom)}", async (c) => {
    const feed = splitFeedName(c.req.param("feed"));
    const tag = feed ? parseTagName(feed.name) : null;
    if (!feed || !tag) return errorPage(c, 404, siteName);
    const local = c.req.query("local") === "true";
    const page = await tagTimeline(ctx, null, tag.normalized, { local }, { limit: FEED_SIZE });
    const views = await loadResolvedViews(ctx, page, null);
    const pageUrl = tagPageUrl(newWebContext(ctx), tag);
    return send(
      c,
      feed.format,
      {
        title: `#${tag.display}`,
        description: `Public posts tagged #${tag.display} on ${siteName}`,
        pageUrl,
        selfUrl: feedUrl(pageUrl, feed.format),
        image: null,
      },
      views,
    );
  });
}
