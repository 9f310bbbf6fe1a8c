// POST /api/v1/statuses/:id/translate: a status the viewer may see, machine-translated by the
// operator's service into `lang` (default: the user's locale). 404 for a status the viewer
// cannot see, 403 for a language pair the service does not offer (a status's own language
// included), 503 without a configured service or when it fails.

import type { Hono } from "hono";
import { z } from "zod";
import { serializeTranslation } from "../../../serialization/mastodon/translation.ts";
import { translateStatus } from "../../../services/translation/translate-status.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { readValidParams } from "../../params.ts";

/** A BCP 47-ish language code as Mastodon takes them: `de`, `pt-BR`, `zh-Hant`. */
const translateSchema = z.object({
  lang: z
    .string()
    .regex(/^[a-zA-Z]{2,3}(?:[-_][a-zA-Z0-9]{2,8})?$/, "must be a language code")
    .optional(),
});

export function translationRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  app.post(
    "/api/v1/statuses/:id/translate",
    access({ scopes: ["read:statuses"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const params = await readValidParams(c, translateSchema);
      const target = params.lang ?? viewer.user.locale;
      const translation = await translateStatus(ctx, viewer.account.id, c.req.param("id"), target);
      return c.json(serializeTranslation(translation));
    },
  );
}
