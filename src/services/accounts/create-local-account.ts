// Creates a local account and its user (sign-in credentials), with Mastodon's rules: a username
// of letters, digits and underscores, at most 30 characters, unique among local accounts
// regardless of case and not reserved; a well-formed, unused email; a password of 8 to 72
// characters. Used by sign-up (POST /api/v1/accounts) and by `wren account create`.

import { type Account, USERNAME_MAX_LENGTH } from "../../domain/account.ts";
import type { Role, User } from "../../domain/user.ts";
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../auth/passwords.ts";
import type { ServiceContext } from "../context.ts";
import { startValidation, tooLong, tooShort, type Validation } from "./validation.ts";

/**
 * Local usernames are stricter than remote ones (domain USERNAME_PATTERN also admits `.` and
 * `-`, which other servers use): Mastodon lets its own users pick only letters, digits and `_`.
 */
export const LOCAL_USERNAME_PATTERN = /^[a-z0-9_]+$/i;

/** Mastodon's default `reserved_usernames` setting. */
export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  "admin",
  "support",
  "help",
  "root",
  "webmaster",
  "administrator",
  "mod",
  "moderator",
]);

const EMAIL_PATTERN = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:".]+$/;
const EMAIL_MAX_LENGTH = 254;
const LOCALE_PATTERN = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

export interface NewAccountInput {
  username: string;
  email: string;
  password: string;
  role?: Role;
  locale?: string;
  /** Operators (the CLI) may take a reserved name such as `admin`; sign-ups may not. */
  allowReserved?: boolean;
  /** Sign-up state of the new user (approval, confirmation, where they came from). */
  signUp?: Pick<User, "approved" | "confirmed" | "signUpReason" | "createdByAppId" | "inviteCode">;
}

// Usernames and emails being created right now, per context: the uniqueness check and the write
// are separated by awaits, so two simultaneous sign-ups for one name must not both pass.
const inFlight = new WeakMap<ServiceContext, Set<string>>();

function claims(ctx: ServiceContext): Set<string> {
  let set = inFlight.get(ctx);
  if (!set) {
    set = new Set();
    inFlight.set(ctx, set);
  }
  return set;
}

/**
 * The instance actor lives at `/users/<host>` (federation/instance-actor.ts): no account may
 * take that name, not even through the CLI. Only a host without a dot or port (`localhost`)
 * could pass the username rule at all.
 */
function isInstanceActorName(ctx: ServiceContext, username: string): boolean {
  return username.toLowerCase() === ctx.settings.domain.toLowerCase();
}

export function validatePassword(validation: Validation, password: string): void {
  if (password === "") validation.add("password", "ERR_BLANK", "can't be blank");
  else if (password.length < MIN_PASSWORD_LENGTH) {
    validation.add("password", "ERR_TOO_SHORT", tooShort(MIN_PASSWORD_LENGTH));
  } else if (password.length > MAX_PASSWORD_LENGTH) {
    validation.add("password", "ERR_TOO_LONG", tooLong(MAX_PASSWORD_LENGTH));
  }
}

/** A well-formed address no user has (nor a creation under way in this process). */
export async function validateEmail(
  ctx: ServiceContext,
  input: string,
  validation: Validation,
): Promise<void> {
  const email = input.trim();
  if (email === "") validation.add("email", "ERR_BLANK", "can't be blank");
  else if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
    validation.add("email", "ERR_INVALID", "is invalid");
  } else if (
    claims(ctx).has(`e:${email.toLowerCase()}`) ||
    (await ctx.storage.users.findByEmail(email))
  ) {
    validation.add("email", "ERR_TAKEN", "has already been taken");
  }
}

/** The lock every change of an address to `email` holds between its check and its write. */
export const emailLockKey = (email: string) => `account-email:e:${email.trim().toLowerCase()}`;

/**
 * Adds every problem with the new account's fields to `validation` (without throwing), so a
 * caller such as sign-up can report its own fields in the same answer.
 */
export async function validateNewAccount(
  ctx: ServiceContext,
  input: NewAccountInput,
  validation: Validation,
): Promise<void> {
  const username = input.username.trim();
  const email = input.email.trim();
  const taken = claims(ctx);

  if (username === "") validation.add("username", "ERR_BLANK", "can't be blank");
  else if (!LOCAL_USERNAME_PATTERN.test(username)) {
    validation.add("username", "ERR_INVALID", "must contain only letters, numbers and underscores");
  } else if (username.length > USERNAME_MAX_LENGTH) {
    validation.add("username", "ERR_TOO_LONG", tooLong(USERNAME_MAX_LENGTH));
  } else if (!input.allowReserved && RESERVED_USERNAMES.has(username.toLowerCase())) {
    validation.add("username", "ERR_RESERVED", "is reserved");
  } else if (isInstanceActorName(ctx, username)) {
    validation.add("username", "ERR_RESERVED", "is reserved");
  } else if (
    taken.has(`u:${username.toLowerCase()}`) ||
    (await ctx.storage.accounts.findByUsername(username, null))
  ) {
    validation.add("username", "ERR_TAKEN", "has already been taken");
  }

  await validateEmail(ctx, email, validation);

  validatePassword(validation, input.password);

  if (input.locale !== undefined && !LOCALE_PATTERN.test(input.locale)) {
    validation.add("locale", "ERR_INCLUSION", "is not included in the list");
  }
}

/** Writes an already validated account; the caller holds the claims on its name and email. */
async function writeAccount(
  ctx: ServiceContext,
  input: NewAccountInput,
): Promise<{ account: Account; user: User }> {
  const username = input.username.trim();
  const passwordHash = await hashPassword(input.password, ctx.settings.passwordHashCost);
  const now = ctx.clock.now().toISOString();
  const { publicUrl } = ctx.settings;
  const account: Account = {
    id: ctx.ids.next(),
    username,
    domain: null,
    displayName: "",
    note: "",
    noteHtml: "",
    locked: false,
    bot: false,
    group: false,
    discoverable: false,
    indexable: false,
    fields: [],
    avatar: null,
    header: null,
    uri: `${publicUrl}/users/${username}`,
    url: `${publicUrl}/@${username}`,
    createdAt: now,
    updatedAt: now,
  };
  const user: User = {
    accountId: account.id,
    email: input.email.trim(),
    passwordHash,
    role: input.role ?? "user",
    locale: input.locale ?? "en",
    defaultVisibility: "public",
    defaultSensitive: false,
    defaultLanguage: null,
    disabled: false,
    createdAt: now,
    ...input.signUp,
  };
  // The account first: a token is only honoured when both records exist, so a crash between
  // the two writes leaves an unusable name rather than credentials without a profile.
  await ctx.storage.accounts.put(account);
  await ctx.storage.users.put(user);
  return { account, user };
}

/**
 * Validates with `extra` checks of the caller folded into the same 422, then creates the
 * account. The name and email stay claimed from the check to the write.
 */
export async function createValidatedAccount(
  ctx: ServiceContext,
  input: NewAccountInput,
  extra: (validation: Validation) => void = () => {},
  /** Runs once everything is valid, just before the write (an invite's use is taken there). */
  beforeWrite: () => Promise<void> = async () => {},
): Promise<{ account: Account; user: User }> {
  const validation = startValidation();
  await validateNewAccount(ctx, input, validation);
  extra(validation);
  validation.check();

  const keys = [
    `u:${input.username.trim().toLowerCase()}`,
    `e:${input.email.trim().toLowerCase()}`,
  ];
  const taken = claims(ctx);
  // Re-check synchronously: another creation may have claimed the name during our awaits.
  if (keys.some((k) => taken.has(k))) {
    const again = startValidation();
    if (taken.has(keys[0] as string)) again.add("username", "ERR_TAKEN", "has already been taken");
    if (taken.has(keys[1] as string)) again.add("email", "ERR_TAKEN", "has already been taken");
    again.check();
  }
  for (const k of keys) taken.add(k);
  const withLock = <T>(key: string, work: () => Promise<T>) =>
    ctx.storage.coordination.withLock(key, work);
  try {
    // The claims keep this process's sign-ups apart; the storage's locks (name first, then
    // email, always in this order) keep other processes' out between check and write. With
    // both held, look again at what is stored: a creation that finished during our validation
    // (here or elsewhere) has released its claims and locks.
    return await withLock(`account-name:${keys[0]}`, () =>
      withLock(emailLockKey(input.email), async () => {
        const [byName, byEmail] = await Promise.all([
          ctx.storage.accounts.findByUsername(input.username.trim(), null),
          ctx.storage.users.findByEmail(input.email.trim()),
        ]);
        const again = startValidation();
        if (byName) again.add("username", "ERR_TAKEN", "has already been taken");
        if (byEmail) again.add("email", "ERR_TAKEN", "has already been taken");
        again.check();
        await beforeWrite();
        return writeAccount(ctx, input);
      }),
    );
  } finally {
    for (const k of keys) taken.delete(k);
  }
}

export async function createLocalAccount(
  ctx: ServiceContext,
  input: NewAccountInput,
): Promise<{ account: Account; user: User }> {
  return createValidatedAccount(ctx, input);
}
