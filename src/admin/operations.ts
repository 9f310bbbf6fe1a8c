// What the admin socket (and the CLI, when no server runs) can do: operations by name, each a
// service call. Each checks the shape of its arguments; the service checks their meaning
// (username taken, password too short…) and throws AppError. The operations are defined in
// groups (operations-*.ts), each loaded when one of its operations is first asked for: a `wren`
// command loads the services its own operation needs, not every group's (ADR 0053).

import type { z } from "zod";
import { AppError } from "../domain/errors.ts";
import type { ServiceContext } from "../services/context.ts";

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

export type OperationTable = Readonly<Record<string, Operation<z.ZodType>>>;
type Group = () => Promise<OperationTable>;

const accounts: Group = async () => (await import("./operations-accounts.ts")).ACCOUNT_OPERATIONS;
const announcements: Group = async () =>
  (await import("./operations-announcements.ts")).ANNOUNCEMENT_OPERATIONS;
const archives: Group = async () => (await import("./operations-archives.ts")).ARCHIVE_OPERATIONS;
const domains: Group = async () => (await import("./operations-domains.ts")).DOMAIN_OPERATIONS;
const emojis: Group = async () => (await import("./operations-emojis.ts")).EMOJI_OPERATIONS;
const imports: Group = async () => (await import("./operations-imports.ts")).IMPORT_OPERATIONS;
const instance: Group = async () => (await import("./operations-instance.ts")).INSTANCE_OPERATIONS;
const media: Group = async () => (await import("./operations-media.ts")).MEDIA_OPERATIONS;
const moderation: Group = async () =>
  (await import("./operations-moderation.ts")).MODERATION_OPERATIONS;
const moves: Group = async () => (await import("./operations-moves.ts")).MOVE_OPERATIONS;
const reports: Group = async () => (await import("./operations-reports.ts")).REPORT_OPERATIONS;
const signUps: Group = async () => (await import("./operations-sign-ups.ts")).SIGN_UP_OPERATIONS;
const tags: Group = async () => (await import("./operations-tags.ts")).TAG_OPERATIONS;

/** Every group, for the test that checks each operation is found by its name. */
export const OPERATION_GROUPS: readonly Group[] = [
  accounts,
  announcements,
  archives,
  domains,
  emojis,
  imports,
  instance,
  media,
  moderation,
  moves,
  reports,
  signUps,
  tags,
];

/** The groups that define the operations named `<prefix>.…`, looked in in this order. */
const GROUPS_BY_PREFIX: Readonly<Record<string, readonly Group[]>> = {
  account: [accounts, signUps, moderation, moves],
  token: [accounts],
  invite: [signUps],
  announcement: [announcements],
  archive: [archives],
  domain: [domains],
  "ip-block": [domains],
  "email-block": [domains],
  emoji: [emojis],
  import: [imports],
  export: [imports],
  instance: [instance],
  media: [media],
  report: [reports],
  tag: [tags],
};

/** The operation of this name, its group loaded on first use; undefined for an unknown name. */
export async function findOperation(name: string): Promise<Operation<z.ZodType> | undefined> {
  const prefix = name.split(".")[0] ?? "";
  const groups = Object.hasOwn(GROUPS_BY_PREFIX, prefix) ? GROUPS_BY_PREFIX[prefix] : undefined;
  for (const group of groups ?? []) {
    const table = await group();
    if (Object.hasOwn(table, name)) return table[name];
  }
  return undefined;
}

/** Whether the operation reaches other servers (see Operation.federation). */
export async function needsFederation(name: string): Promise<boolean> {
  return (await findOperation(name))?.federation === true;
}

/** Runs one operation by name; unknown names and malformed arguments are a 400. */
export async function runAdminOperation(
  ctx: ServiceContext,
  name: string,
  args: unknown,
  hooks?: LocalHooks,
): Promise<unknown> {
  const op = await findOperation(name);
  if (!op) throw new AppError(400, `Unknown operation: ${name}`);
  const parsed = op.args.safeParse(args ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "args"}: ${i.message}`);
    throw new AppError(400, `Invalid arguments for ${name}: ${problems.join("; ")}`);
  }
  return op.run(ctx, parsed.data, hooks);
}
