// The instance's documents (/api/v1/instance/extended_description, /privacy_policy,
// /terms_of_service[/:date]), its posting and translation languages and its public list of
// blocked domains.
// Public like the rest of the instance endpoints; only the domain list may look at the token
// (WREN_SHOW_DOMAIN_BLOCKS=users), as Mastodon's show_domain_blocks setting does.

import type { Hono } from "hono";
import { notFound } from "../../../domain/errors.ts";
import { postingLanguages } from "../../../domain/languages.ts";
import {
  serializeExtendedDescription,
  serializePrivacyPolicy,
  serializePublicDomainBlocks,
  serializeTermsOfService,
} from "../../../serialization/mastodon/instance-documents.ts";
import { listDomainBlocks } from "../../../services/domain-blocks/domain-blocks.ts";
import { getDocument } from "../../../services/instance/documents.ts";
import { findTerms, isCalendarDate } from "../../../services/instance/terms.ts";
import { translationLanguages } from "../../../services/translation/translate-status.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { verifiedCaller } from "../../middleware/caller.ts";

export function instanceDocumentRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const { ctx } = deps;

  app.get("/api/v1/instance/extended_description", async (c) => {
    return c.json(serializeExtendedDescription(await getDocument(ctx, "extended-description")));
  });

  // Mastodon falls back to a built-in template; Wren publishes only the operator's own policy.
  app.get("/api/v1/instance/privacy_policy", async (c) => {
    const policy = await getDocument(ctx, "privacy-policy");
    if (!policy) throw notFound();
    return c.json(serializePrivacyPolicy(policy));
  });

  app.get("/api/v1/instance/terms_of_service", async (c) => {
    return c.json(serializeTermsOfService(await findTerms(ctx)));
  });

  app.get("/api/v1/instance/terms_of_service/:date", async (c) => {
    const date = c.req.param("date");
    // Like any date no version has, a malformed one names nothing: 404, as Mastodon answers.
    if (!isCalendarDate(date)) throw notFound();
    return c.json(serializeTermsOfService(await findTerms(ctx, date)));
  });

  // What apps offer in their language picker (Mastodon 4.2+): [{ code, name }].
  app.get("/api/v1/instance/languages", (c) => c.json(postingLanguages()));

  // The pairs the configured translation service offers; {} without one.
  app.get("/api/v1/instance/translation_languages", async (c) => {
    return c.json(await translationLanguages(ctx));
  });

  app.get("/api/v1/instance/domain_blocks", async (c) => {
    const shown = ctx.settings.showDomainBlocks ?? "disabled";
    const allowed =
      shown === "all" || (shown === "users" && Boolean((await verifiedCaller(c, ctx))?.account));
    if (!allowed) throw notFound();
    return c.json(serializePublicDomainBlocks(await listDomainBlocks(ctx)));
  });
}
