// Quote posts (Mastodon 4.5): the accepted quotes of one's status, revoking one of them, and
// changing who may quote a status. Quoting itself is `quoted_status_id` on POST /statuses.

import type { Hono } from "hono";
import { z } from "zod";
import { listQuotes } from "../../../services/quotes/list-quotes.ts";
import { revokeQuote } from "../../../services/quotes/revoke-quote.ts";
import { setQuotePolicy } from "../../../services/quotes/set-quote-policy.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { jsonText } from "../../json-text.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { UPDATE_METHODS } from "../../update-methods.ts";
import { renderStatusesText, renderStatusText } from "../status-json.ts";
import { quotePolicyParam } from "./statuses.ts";

const STATUS = "/api/v1/statuses/:id{[0-9]+}";
const pageSchema = z.object(pageFields(20, 40));
const policySchema = z.object({ quote_approval_policy: quotePolicyParam });

export function quoteRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const read = access({ scopes: ["read:statuses"], user: true });
  const write = access({ scopes: ["write:statuses"], user: true });

  app.get(`${STATUS}/quotes`, read, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, pageSchema);
    const page = await listQuotes(ctx, viewer.account.id, c.req.param("id"), toIdPage(params));
    setLinkHeader(c, ctx.settings.publicUrl, page);
    return jsonText(c, await renderStatusesText(ctx, page.statuses, viewer.account.id));
  });

  app.post(`${STATUS}/quotes/:quoting{[0-9]+}/revoke`, write, async (c) => {
    const viewer = requireViewer(c);
    const quoting = await revokeQuote(
      ctx,
      viewer.account.id,
      c.req.param("id"),
      c.req.param("quoting"),
    );
    return jsonText(c, await renderStatusText(ctx, quoting, viewer.account.id));
  });

  app.on(UPDATE_METHODS, `${STATUS}/interaction_policy`, write, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, policySchema);
    const status = await setQuotePolicy(
      ctx,
      viewer.account.id,
      c.req.param("id"),
      params.quote_approval_policy,
    );
    return jsonText(c, await renderStatusText(ctx, status, viewer.account.id));
  });
}
