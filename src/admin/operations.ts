// What the admin socket (and the CLI, when no server runs) can do: a map from operation name to
// a service call. Each entry checks the shape of its arguments; the service checks their
// meaning (username taken, password too short…) and throws AppError.

import { z } from "zod";
import { AppError } from "../domain/errors.ts";
import { ROLES } from "../domain/user.ts";
import { createLocalAccount } from "../services/accounts/create-local-account.ts";
import { resetPassword } from "../services/accounts/reset-password.ts";
import type { ServiceContext } from "../services/context.ts";
import { createPersonalToken } from "../services/oauth/create-personal-token.ts";
import { ANNOUNCEMENT_OPERATIONS } from "./operations-announcements.ts";
import { ARCHIVE_OPERATIONS } from "./operations-archives.ts";
import { DOMAIN_OPERATIONS } from "./operations-domains.ts";
import { EMOJI_OPERATIONS } from "./operations-emojis.ts";
import { IMPORT_OPERATIONS } from "./operations-imports.ts";
import { INSTANCE_OPERATIONS } from "./operations-instance.ts";
import { MEDIA_OPERATIONS } from "./operations-media.ts";
import { MODERATION_OPERATIONS } from "./operations-moderation.ts";
import { MOVE_OPERATIONS } from "./operations-moves.ts";
import { REPORT_OPERATIONS } from "./operations-reports.ts";
import { SIGN_UP_OPERATIONS } from "./operations-sign-ups.ts";
import { TAG_OPERATIONS } from "./operations-tags.ts";

/**
 * What a command running an operation in its own process (no server) lends it: a progress
 * display and a way to hand over bytes too large for a result. Absent through the admin socket.
 */
export interface LocalHooks {
  progress?(done: number, total: number): void;
  output?(bytes: Uint8Array): Promise<void>;
}

export interface Operation<S extends z.ZodType> {
  args: S;
  /** Reaches other servers: a command without a server builds the federation first. */
  federation?: boolean;
  run(ctx: ServiceContext, args: z.output<S>, hooks?: LocalHooks): Promise<unknown>;
}

function operation<S extends z.ZodType>(op: Operation<S>): Operation<S> {
  return op;
}

export const ADMIN_OPERATIONS = {
  "account.create": operation({
    args: z.object({
      username: z.string(),
      email: z.string(),
      password: z.string(),
      admin: z.boolean().default(false),
      role: z.enum(ROLES).optional(),
    }),
    async run(ctx, args) {
      const { account } = await createLocalAccount(ctx, {
        username: args.username,
        email: args.email,
        password: args.password,
        role: args.role ?? (args.admin ? "admin" : "user"),
        // The operator may take names kept from sign-ups, such as `admin`.
        allowReserved: true,
      });
      return { id: account.id, username: account.username };
    },
  }),
  "account.resetPassword": operation({
    args: z.object({ username: z.string(), password: z.string() }),
    async run(ctx, args) {
      return resetPassword(ctx, { username: args.username, password: args.password });
    },
  }),
  "token.create": operation({
    args: z.object({ username: z.string(), scopes: z.array(z.string()).default([]) }),
    async run(ctx, args) {
      const { secret } = await createPersonalToken(ctx, {
        username: args.username,
        scopes: args.scopes,
      });
      return { token: secret };
    },
  }),
  ...EMOJI_OPERATIONS,
  ...ANNOUNCEMENT_OPERATIONS,
  ...MEDIA_OPERATIONS,
  ...DOMAIN_OPERATIONS,
  ...REPORT_OPERATIONS,
  ...SIGN_UP_OPERATIONS,
  ...MODERATION_OPERATIONS,
  ...INSTANCE_OPERATIONS,
  ...MOVE_OPERATIONS,
  ...IMPORT_OPERATIONS,
  ...ARCHIVE_OPERATIONS,
  ...TAG_OPERATIONS,
} satisfies Record<string, Operation<z.ZodType>>;

export type AdminOperationName = keyof typeof ADMIN_OPERATIONS;

export function isAdminOperation(name: string): name is AdminOperationName {
  return Object.hasOwn(ADMIN_OPERATIONS, name);
}

/** Whether the operation reaches other servers (see Operation.federation). */
export function needsFederation(name: string): boolean {
  return (
    isAdminOperation(name) && (ADMIN_OPERATIONS[name] as Operation<z.ZodType>).federation === true
  );
}

/** Runs one operation by name; unknown names and malformed arguments are a 400. */
export async function runAdminOperation(
  ctx: ServiceContext,
  name: string,
  args: unknown,
  hooks?: LocalHooks,
): Promise<unknown> {
  if (!isAdminOperation(name)) throw new AppError(400, `Unknown operation: ${name}`);
  const op: Operation<z.ZodType> = ADMIN_OPERATIONS[name];
  const parsed = op.args.safeParse(args ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "args"}: ${i.message}`);
    throw new AppError(400, `Invalid arguments for ${name}: ${problems.join("; ")}`);
  }
  return op.run(ctx, parsed.data, hooks);
}
