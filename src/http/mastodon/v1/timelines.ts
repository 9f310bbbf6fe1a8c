// Timelines: GET /api/v1/timelines/home (a user's follows), /direct (their direct messages), /public (everything public, or
// only local or remote), /tag/:hashtag, /list/:id (a user's list) and /link (the statuses behind
// a trending link's preview card; any other URL is answered 404, as Mastodon does). The services
// generate the page with its statuses already read; they are hydrated in one batch without
// reading them again, and the Link header pages by the returned statuses' ids.

import type { Context, Hono } from "hono";
import { z } from "zod";
import { notFound } from "../../../domain/errors.ts";
import type { FilterContext } from "../../../domain/filter.ts";
import { linkTimeline } from "../../../services/discovery/trending.ts";
import { directTimeline } from "../../../services/timelines/direct.ts";
import { homeTimeline } from "../../../services/timelines/home.ts";
import { listTimeline } from "../../../services/timelines/list.ts";
import { publicTimeline } from "../../../services/timelines/public.ts";
import type { ResolvedEntry } from "../../../services/timelines/resolve-entries.ts";
import { tagTimeline } from "../../../services/timelines/tag.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { jsonText } from "../../json-text.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { booleanParam, listParam } from "../../schemas.ts";
import { renderResolvedBytes } from "../status-json.ts";

const homeSchema = z.object(pageFields(20, 40));

const originFields = {
  local: booleanParam.optional(),
  remote: booleanParam.optional(),
  only_media: booleanParam.optional(),
};

const publicSchema = z.object({ ...pageFields(20, 40), ...originFields });

const tagList = listParam(z.string()).optional();
const tagSchema = z.object({
  ...pageFields(20, 40),
  ...originFields,
  any: tagList,
  all: tagList,
  none: tagList,
});

const linkSchema = z.object({ ...pageFields(20, 40), url: z.string().optional() });

export function timelineRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  /**
   * Answers a page: Link header from its statuses (before the viewer's `hide` filters leave
   * some out, so paging moves on past them), bodies hydrated in one batch.
   */
  async function answer(
    c: Context<HttpEnv>,
    page: ResolvedEntry[],
    viewerId: string | null,
    filterContext: FilterContext,
  ) {
    setLinkHeader(c, ctx.settings.publicUrl, {
      newestId: page[0]?.status.id,
      oldestId: page[page.length - 1]?.status.id,
    });
    return jsonText(c, await renderResolvedBytes(ctx, page, viewerId, filterContext));
  }

  app.get(
    "/api/v1/timelines/home",
    access({ scopes: ["read:statuses"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const params = await readValidParams(c, homeSchema);
      const entries = await homeTimeline(ctx, viewer.account.id, toIdPage(params));
      return answer(c, entries, viewer.account.id, "home");
    },
  );

  // Deprecated by Mastodon in favour of conversations, still called by some apps.
  app.get(
    "/api/v1/timelines/direct",
    access({ scopes: ["read:statuses"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const params = await readValidParams(c, homeSchema);
      const entries = await directTimeline(ctx, viewer.account.id, toIdPage(params));
      return answer(c, entries, viewer.account.id, "thread");
    },
  );

  app.get(
    "/api/v1/timelines/list/:id{[0-9]+}",
    access({ scopes: ["read:lists"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const params = await readValidParams(c, homeSchema);
      const entries = await listTimeline(
        ctx,
        viewer.account.id,
        c.req.param("id"),
        toIdPage(params),
      );
      return answer(c, entries, viewer.account.id, "home");
    },
  );

  // Public and hashtag timelines need no token (Mastodon's default "public preview"); a token,
  // when sent, must be valid and carry read:statuses, and makes its user the viewer.
  app.get(
    "/api/v1/timelines/public",
    access({ optional: true, scopes: ["read:statuses"] }),
    async (c) => {
      const viewerId = c.get("viewer")?.account?.id ?? null;
      const params = await readValidParams(c, publicSchema);
      const entries = await publicTimeline(
        ctx,
        viewerId,
        { local: params.local, remote: params.remote, onlyMedia: params.only_media },
        toIdPage(params),
      );
      return answer(c, entries, viewerId, "public");
    },
  );

  app.get(
    "/api/v1/timelines/tag/:hashtag",
    access({ optional: true, scopes: ["read:statuses"] }),
    async (c) => {
      const viewerId = c.get("viewer")?.account?.id ?? null;
      const params = await readValidParams(c, tagSchema);
      const entries = await tagTimeline(
        ctx,
        viewerId,
        c.req.param("hashtag"),
        {
          any: params.any,
          all: params.all,
          none: params.none,
          local: params.local,
          remote: params.remote,
          onlyMedia: params.only_media,
        },
        toIdPage(params),
      );
      return answer(c, entries, viewerId, "public");
    },
  );

  // The statuses behind a trending preview card, as Mastodon lists them; 404 for any other URL
  // (a missing one too). The parameters are checked first so a malformed request gets a 422.
  app.get(
    "/api/v1/timelines/link",
    access({ optional: true, scopes: ["read:statuses"] }),
    async (c) => {
      const params = await readValidParams(c, linkSchema);
      const viewerId = c.get("viewer")?.account?.id ?? null;
      const entries =
        params.url === undefined
          ? undefined
          : await linkTimeline(ctx, viewerId, params.url, toIdPage(params));
      if (entries === undefined) throw notFound();
      return answer(c, entries, viewerId, "public");
    },
  );
}
