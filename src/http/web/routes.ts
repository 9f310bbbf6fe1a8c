// The public pages: a local account's profile at /@username (its posts with a hashtag at
// /@username/tagged/:tag, where featured tags link) and a status at /@username/:id,
// and the same pages for browsers at the ActivityPub ids (/users/:username,
// /users/:username/statuses/:id). Only public and unlisted statuses are ever shown; the pages
// are anonymous (no session), so nothing depends on who is reading.
//
// ActivityPub JSON is the federation layer's job. A request asking for it at /users/… is passed
// on (next()), so it never gets HTML; at /@… (the `url` of an account or status) a peer that
// asks for JSON is redirected to the ActivityPub id, as long as the page itself would be shown.

import type { Context, Hono } from "hono";
import type { Account } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import { findListedLocalAccount, listedAccount } from "../../services/accounts/listed-account.ts";
import { parseAcct } from "../../services/accounts/lookup-account.ts";
import { parseTagName } from "../../services/tags/tag-name.ts";
import { accountStatuses } from "../../services/timelines/account-statuses.ts";
import { loadAccountView } from "../../views/account-view.ts";
import { loadResolvedViews, loadStatusViews } from "../../views/status-view.ts";
import { deletionIsPublic, visibleToAnyone } from "../../views/visibility.ts";
import type { HttpDeps, HttpEnv } from "../env.ts";
import { errorBody } from "../middleware/errors.ts";
import { newWebContext, type WebContext } from "./context.ts";
import { errorPage } from "./error-page.ts";
import { type PageMeta, renderDocument, sendPage } from "./layout.ts";
import { wantsActivityJson } from "./negotiation.ts";
import { profilePage } from "./profile-page.ts";
import { statusPage } from "./status-page.ts";

const PAGE_SIZE = 20;
const ID = /^[0-9]{1,20}$/;

type Found<T> = { ok: T } | { error: 404 | 410 };

export function webPageRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const { ctx } = deps;
  const siteName = ctx.settings.title;

  const webContext = () => newWebContext(ctx);

  function send(c: Context<HttpEnv>, w: WebContext, page: { meta: PageMeta; body: string }) {
    return sendPage(c, 200, renderDocument(page.meta, page.body), w.assets);
  }

  /** What a peer asking for JSON at an /@… address gets. */
  function answerActivityRequest(c: Context<HttpEnv>, found: Found<{ uri: string }>) {
    c.header("Vary", "Accept");
    if ("error" in found) {
      return c.json(errorBody(found.error === 410 ? "Gone" : "Record not found"), found.error);
    }
    return c.redirect(found.ok.uri, 302);
  }

  async function localAccount(username: string): Promise<Account | undefined> {
    if (username.includes("@")) return undefined;
    return findListedLocalAccount(ctx, username);
  }

  /** A status of `account` that the public may see: public or unlisted, not deleted. */
  async function publicStatus(account: Account, id: string): Promise<Found<Status>> {
    const status = ID.test(id) ? await ctx.storage.statuses.get(id) : undefined;
    // Private and direct statuses are not revealed to exist, deleted or not.
    if (!status || status.accountId !== account.id) return { error: 404 };
    if (status.deleted) return { error: deletionIsPublic(status) ? 410 : 404 };
    return visibleToAnyone(status) ? { ok: status } : { error: 404 };
  }

  /** The profile, or with `tagged` its posts carrying that hashtag (a featured tag's link). */
  async function showProfile(
    c: Context<HttpEnv>,
    account: Account,
    tagged?: string,
  ): Promise<Response> {
    const raw = c.req.query("max_id");
    const maxId = raw !== undefined && ID.test(raw) ? raw : undefined;
    const page = await accountStatuses(
      ctx,
      null,
      account.id,
      tagged === undefined ? { excludeReplies: true } : { tagged },
      { limit: PAGE_SIZE, maxId },
    );
    const [view, views] = await Promise.all([
      loadAccountView(ctx, account),
      loadResolvedViews(ctx, page, null),
    ]);
    const oldest = page[page.length - 1]?.status.id;
    const w = webContext();
    const olderThan = page.length === PAGE_SIZE ? oldest : undefined;
    const base =
      tagged === undefined ? undefined : `${account.url}/tagged/${encodeURIComponent(tagged)}`;
    return send(c, w, profilePage(w, view, views, { maxId, olderThan, base }));
  }

  async function showStatus(c: Context<HttpEnv>, status: Status): Promise<Response> {
    if (status.reblogOfId !== null) {
      // A boost has no page of its own: Mastodon sends readers to the boosted status.
      const original = await ctx.storage.statuses.get(status.reblogOfId);
      return original && visibleToAnyone(original)
        ? c.redirect(original.url, 302)
        : errorPage(c, 404, siteName);
    }
    const [view] = await loadStatusViews(ctx, [status], null);
    if (!view) return errorPage(c, 404, siteName);
    const w = webContext();
    return send(c, w, statusPage(w, view));
  }

  // /@username: local accounts; /@user@host: a remote account, sent to its own page.
  app.get("/:handle{@[^/]+}", async (c) => {
    const parsed = parseAcct(ctx, c.req.param("handle"));
    const account = parsed
      ? await listedAccount(
          ctx,
          await ctx.storage.accounts.findByUsername(parsed.username, parsed.domain),
        )
      : undefined;
    const activity = wantsActivityJson(c.req.header("accept"));
    if (activity) return answerActivityRequest(c, account ? { ok: account } : { error: 404 });
    if (!account) return errorPage(c, 404, siteName);
    if (account.domain !== null) {
      return /^https?:\/\//.test(account.url)
        ? c.redirect(account.url, 302)
        : errorPage(c, 404, siteName);
    }
    return showProfile(c, account);
  });

  app.get("/:handle{@[^/@]+}/:id", async (c) => {
    const account = await localAccount(c.req.param("handle").slice(1));
    const found: Found<Status> = account
      ? await publicStatus(account, c.req.param("id"))
      : { error: 404 };
    if (wantsActivityJson(c.req.header("accept"))) return answerActivityRequest(c, found);
    if ("error" in found) return errorPage(c, found.error, siteName);
    return showStatus(c, found.ok);
  });

  app.get("/:handle{@[^/@]+}/tagged/:tag", async (c) => {
    const account = await localAccount(c.req.param("handle").slice(1));
    const tag = parseTagName(c.req.param("tag"));
    if (!account || !tag) return errorPage(c, 404, siteName);
    return showProfile(c, account, tag.normalized);
  });

  app.get("/users/:username", async (c, next) => {
    if (wantsActivityJson(c.req.header("accept"))) return next();
    const account = await localAccount(c.req.param("username"));
    if (!account) return errorPage(c, 404, siteName);
    return showProfile(c, account);
  });

  app.get("/users/:username/statuses/:id", async (c, next) => {
    if (wantsActivityJson(c.req.header("accept"))) return next();
    const account = await localAccount(c.req.param("username"));
    const found: Found<Status> = account
      ? await publicStatus(account, c.req.param("id"))
      : { error: 404 };
    if ("error" in found) return errorPage(c, found.error, siteName);
    return showStatus(c, found.ok);
  });
}
