// Following: follow, unfollow, remove from followers, the followers and following lists, the
// batched reads clients make next to every profile (relationships, familiar followers), and the
// viewer's private note about an account. The
// literal paths /api/v1/accounts/relationships and /familiar_followers are registered before
// the accounts module's `/api/v1/accounts/:id`.

import type { Hono } from "hono";
import { z } from "zod";
import { setAccountNote } from "../../../services/graph/account-note.ts";
import { familiarFollowers } from "../../../services/graph/familiar-followers.ts";
import { followAccount } from "../../../services/graph/follow.ts";
import { listFollowers } from "../../../services/graph/list-followers.ts";
import { listFollowing } from "../../../services/graph/list-following.ts";
import { removeFromFollowers } from "../../../services/graph/remove-from-followers.ts";
import { unfollowAccount } from "../../../services/graph/unfollow.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import type { Access } from "../../middleware/access.ts";
import { requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { booleanParam, idParam, listParam } from "../../schemas.ts";
import { renderAccounts } from "../account-json.ts";
import { renderRelationship, renderRelationships } from "../relationship-json.ts";

const followSchema = z.object({
  reblogs: booleanParam.optional(),
  notify: booleanParam.optional(),
  // `languages[]=en`; a form's empty `languages[]=` clears the filter; JSON null leaves it as is.
  languages: z
    .union([listParam(z.string()), z.null()])
    .optional()
    .transform((v) => (v === null ? undefined : v?.filter((l) => l !== ""))),
});

// An id asked twice is answered once, where it was first asked (Mastodon looks the accounts up
// as a set).
const idsSchema = z.object({
  id: listParam(idParam)
    .optional()
    .default([])
    .transform((ids) => [...new Set(ids)]),
  with_suspended: booleanParam.optional(),
});

/** A JSON null or an absent comment clears the note, as a blank one does. */
const noteSchema = z.object({
  comment: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => v ?? ""),
});

/** Mastodon pages account lists 40 at a time, at most 80. */
const accountListSchema = z.object(pageFields(40, 80));

export function accountRelationRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const publicUrl = ctx.settings.publicUrl;

  app.get(
    "/api/v1/accounts/relationships",
    access({ scopes: ["read:follows"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      // One Relationship per id asked (DESIGN §1), suspended accounts too: `with_suspended`
      // changes nothing.
      const { id } = await readValidParams(c, idsSchema);
      return c.json(await renderRelationships(ctx, viewer.account.id, id));
    },
  );

  app.get(
    "/api/v1/accounts/familiar_followers",
    access({ scopes: ["read:follows"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const { id } = await readValidParams(c, idsSchema);
      const results = await familiarFollowers(ctx, viewer.account.id, id);
      // One batched render for every list, then cut back into the per-account lists.
      const rendered = await renderAccounts(
        ctx,
        results.flatMap((r) => r.accounts),
      );
      const answer = [];
      let start = 0;
      for (const r of results) {
        answer.push({
          id: r.accountId,
          accounts: rendered.slice(start, start + r.accounts.length),
        });
        start += r.accounts.length;
      }
      return c.json(answer);
    },
  );

  app.post(
    "/api/v1/accounts/:id{[0-9]+}/follow",
    access({ scopes: ["write:follows"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const params = await readValidParams(c, followSchema);
      const targetId = c.req.param("id");
      await followAccount(ctx, viewer.account.id, targetId, {
        reblogs: params.reblogs,
        notify: params.notify,
        languages: params.languages,
      });
      return c.json(await renderRelationship(ctx, viewer.account.id, targetId));
    },
  );

  app.post(
    "/api/v1/accounts/:id{[0-9]+}/unfollow",
    access({ scopes: ["write:follows"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const targetId = c.req.param("id");
      await unfollowAccount(ctx, viewer.account.id, targetId);
      return c.json(await renderRelationship(ctx, viewer.account.id, targetId));
    },
  );

  app.post(
    "/api/v1/accounts/:id{[0-9]+}/remove_from_followers",
    access({ scopes: ["write:follows"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const followerId = c.req.param("id");
      await removeFromFollowers(ctx, viewer.account.id, followerId);
      return c.json(await renderRelationship(ctx, viewer.account.id, followerId));
    },
  );

  app.post(
    "/api/v1/accounts/:id{[0-9]+}/note",
    access({ scopes: ["write:accounts"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const { comment } = await readValidParams(c, noteSchema);
      const targetId = c.req.param("id");
      await setAccountNote(ctx, viewer.account.id, targetId, comment);
      return c.json(await renderRelationship(ctx, viewer.account.id, targetId));
    },
  );

  for (const [path, list] of [
    ["followers", listFollowers],
    ["following", listFollowing],
  ] as const) {
    app.get(
      `/api/v1/accounts/:id{[0-9]+}/${path}`,
      access({ optional: true, scopes: ["read:accounts"] }),
      async (c) => {
        const params = await readValidParams(c, accountListSchema);
        const page = await list(ctx, c.req.param("id"), toIdPage(params));
        setLinkHeader(c, publicUrl, page);
        return c.json(
          await renderAccounts(
            ctx,
            page.items.map((i) => i.account),
          ),
        );
      },
    );
  }
}
