// POST /api/v1/emails/confirmations: sends the confirmation mail again, to a new address when
// `email` is given. Not a method of a full user (those refuse the unconfirmed): any token of a
// user with write:accounts, checked further by the service (the app the user signed up with,
// an address still awaiting confirmation).

import type { Hono } from "hono";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { resendConfirmation } from "../../../services/accounts/confirm-email.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import type { Access } from "../../middleware/access.ts";
import { readValidParams } from "../../params.ts";

const confirmationSchema = z.object({ email: z.string().optional() });

export function emailRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  app.post("/api/v1/emails/confirmations", access({ scopes: ["write:accounts"] }), async (c) => {
    const viewer = c.get("viewer");
    if (!viewer?.user) throw new AppError(422, "This method requires an authenticated user");
    const { email } = await readValidParams(c, confirmationSchema);
    await resendConfirmation(deps.ctx, viewer.user, viewer.app.id, email);
    return c.json({});
  });
}
