// Statuses: post, read (one or several), delete, edit with history and source, and the thread
// context. Reading needs no token for what the public may see; a token, when given, must admit
// read:statuses. Actions on a status (/reblog, /favourite…) live in status-actions.ts.

import type { Context, Hono } from "hono";
import { z } from "zod";
import { notFound } from "../../../domain/errors.ts";
import { QUOTE_POLICIES } from "../../../domain/quote.ts";
import { serializeAccount } from "../../../serialization/mastodon/account.ts";
import {
  serializeStatusEdit,
  serializeStatusSource,
} from "../../../serialization/mastodon/status-edit.ts";
import { scheduleStatus } from "../../../services/scheduled-statuses/schedule-status.ts";
import { isPast, parseScheduledAt } from "../../../services/scheduled-statuses/schedule-time.ts";
import { postStatus } from "../../../services/statuses/create-status.ts";
import { deleteStatus } from "../../../services/statuses/delete-status.ts";
import { editStatus } from "../../../services/statuses/edit-status.ts";
import { getStatus, getStatuses } from "../../../services/statuses/get-statuses.ts";
import { statusContext } from "../../../services/statuses/status-context.ts";
import { statusHistory } from "../../../services/statuses/status-history.ts";
import { statusSource } from "../../../services/statuses/status-source.ts";
import { loadStatusHistoryView } from "../../../views/status-history-view.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { jsonText } from "../../json-text.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { readValidParams } from "../../params.ts";
import { anyIdParam, booleanParam, idParam, integerParam, listParam } from "../../schemas.ts";
import { UPDATE_METHODS } from "../../update-methods.ts";
import { urlContext } from "../account-json.ts";
import { bytesOf, mediaAttributesParam } from "../media-params.ts";
import { renderScheduledStatus } from "../scheduled-status-json.ts";
import {
  renderPostedStatusText,
  renderStatus,
  renderStatuses,
  renderStatusesText,
  renderStatusText,
} from "../status-json.ts";

const STATUS = "/api/v1/statuses/:id{[0-9]+}";

/** Text fields: JSON clients may send null for "none". */
const text = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v) => v ?? undefined);

/** Optional choices and ids: forms send "" for "not set". */
function blankable<T extends z.ZodType>(schema: T) {
  return z
    .union([z.literal(""), z.null(), schema])
    .optional()
    .transform((v) => (v === "" || v === null ? undefined : (v as z.output<T>)));
}

/** A form's empty `media_ids[]=` names no attachment (Mastodon finds none for it), not a bad id. */
const mediaIds = z
  .union([listParam(z.union([z.literal(""), idParam])), z.null()])
  .optional()
  .transform((v) => v?.filter((id) => id !== "") ?? undefined);

/** `poll[options][]`, `poll[expires_in]`, `poll[multiple]`, `poll[hide_totals]`; the poll
 * rules themselves (counts, lengths, deadline) are the service's, with Mastodon's messages. */
const pollObject = z
  .object({
    options: z
      .union([listParam(z.union([z.string(), z.number()]).transform(String)), z.null()])
      .optional()
      .transform((v) => v ?? undefined),
    expires_in: blankable(integerParam),
    multiple: blankable(booleanParam),
    hide_totals: blankable(booleanParam),
  })
  .transform((p) => ({
    options: p.options,
    expiresIn: p.expires_in,
    multiple: p.multiple,
    hideTotals: p.hide_totals,
  }));

const pollParam = z
  .union([z.literal(""), z.null(), pollObject])
  .optional()
  .transform((v) => (v === "" || v === null ? undefined : v));

/** `quote_approval_policy`: public, followers or nobody. */
export const quotePolicyParam = blankable(z.enum(QUOTE_POLICIES));

const createSchema = z.object({
  status: text,
  spoiler_text: text,
  sensitive: blankable(booleanParam),
  visibility: blankable(z.enum(["public", "unlisted", "private", "direct"])),
  language: text,
  in_reply_to_id: blankable(idParam),
  media_ids: mediaIds,
  poll: pollParam,
  scheduled_at: text,
  quoted_status_id: blankable(idParam),
  quote_approval_policy: quotePolicyParam,
});

const editSchema = z.object({
  status: text,
  spoiler_text: text,
  sensitive: blankable(booleanParam),
  language: z.union([z.string(), z.null()]).optional(),
  media_ids: mediaIds,
  media_attributes: mediaAttributesParam,
  poll: pollParam,
  quote_approval_policy: quotePolicyParam,
});

/** Mastodon reads each id as a number, so ids that are not numeric simply match nothing. */
const multiSchema = z.object({
  id: listParam(anyIdParam)
    .optional()
    .transform((v) => (v ?? []).filter((id) => /^[0-9]{1,25}$/.test(id))),
});

/** The viewing account for routes where a token is optional (null without one, or for an app token). */
function viewerIdOf(c: Context<HttpEnv>): string | null {
  return c.get("viewer")?.account?.id ?? null;
}

export function statusRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const readOptional = access({ scopes: ["read:statuses"], optional: true });
  const writeUser = access({ scopes: ["write:statuses"], user: true });

  app.post("/api/v1/statuses", writeUser, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, createSchema);
    const input = {
      accountId: viewer.account.id,
      applicationId: viewer.app.id,
      text: params.status,
      spoilerText: params.spoiler_text,
      sensitive: params.sensitive,
      visibility: params.visibility,
      language: params.language,
      inReplyToId: params.in_reply_to_id,
      mediaIds: params.media_ids,
      poll: params.poll,
      quotedStatusId: params.quoted_status_id,
      quotePolicy: params.quote_approval_policy,
      idempotencyKey: c.req.header("idempotency-key"),
    };
    // A time already past posts at once, as in Mastodon; a later one answers a ScheduledStatus.
    const at = params.scheduled_at ? parseScheduledAt(params.scheduled_at) : undefined;
    if (at && !isPast(ctx, at)) {
      return c.json(await renderScheduledStatus(ctx, await scheduleStatus(ctx, input, at)));
    }
    const posted = await postStatus(ctx, input);
    return jsonText(c, await renderPostedStatusText(ctx, posted, viewer.account.id));
  });

  app.get("/api/v1/statuses", readOptional, async (c) => {
    const { id } = await readValidParams(c, multiSchema);
    const viewerId = viewerIdOf(c);
    return jsonText(
      c,
      await renderStatusesText(ctx, await getStatuses(ctx, viewerId, id), viewerId),
    );
  });

  app.get(STATUS, readOptional, async (c) => {
    const viewerId = viewerIdOf(c);
    const status = await getStatus(ctx, viewerId, c.req.param("id"));
    return jsonText(c, await renderStatusText(ctx, status, viewerId));
  });

  app.delete(STATUS, writeUser, async (c) => {
    const viewer = requireViewer(c);
    const deleted = await deleteStatus(ctx, viewer.account.id, c.req.param("id"));
    return c.json(await renderStatus(ctx, deleted, viewer.account.id, { withSource: true }));
  });

  app.on(UPDATE_METHODS, STATUS, writeUser, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, editSchema);
    const status = await editStatus(ctx, {
      accountId: viewer.account.id,
      statusId: c.req.param("id"),
      text: params.status,
      spoilerText: params.spoiler_text,
      sensitive: params.sensitive,
      language: params.language,
      mediaIds: params.media_ids,
      mediaAttributes: params.media_attributes
        ? await Promise.all(
            params.media_attributes.map(async ({ thumbnail, ...rest }) => ({
              ...rest,
              thumbnail: await bytesOf(thumbnail),
            })),
          )
        : undefined,
      poll: params.poll,
      quotePolicy: params.quote_approval_policy,
    });
    return c.json(await renderStatus(ctx, status, viewer.account.id));
  });

  app.get(`${STATUS}/history`, readOptional, async (c) => {
    const versions = await statusHistory(ctx, viewerIdOf(c), c.req.param("id"));
    const history = await loadStatusHistoryView(ctx, versions);
    if (!history) throw notFound();
    const urls = urlContext(ctx);
    const account = serializeAccount(history.author, urls);
    return c.json(
      history.versions.map((version) => serializeStatusEdit(version, account, history.media, urls)),
    );
  });

  app.get(`${STATUS}/source`, access({ scopes: ["read:statuses"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    return c.json(
      serializeStatusSource(await statusSource(ctx, viewer.account.id, c.req.param("id"))),
    );
  });

  app.get(`${STATUS}/context`, readOptional, async (c) => {
    const viewerId = viewerIdOf(c);
    const { ancestors, descendants } = await statusContext(ctx, viewerId, c.req.param("id"));
    // One batch for the whole thread: each author is loaded once.
    const rendered = await renderStatuses(ctx, [...ancestors, ...descendants], viewerId, {
      filterContext: "thread",
    });
    const byId = new Map(rendered.map((json) => [json.id, json]));
    const pick = (list: readonly { id: string }[]) =>
      list.flatMap((s) => {
        const json = byId.get(s.id);
        return json ? [json] : [];
      });
    return c.json({ ancestors: pick(ancestors), descendants: pick(descendants) });
  });
}
