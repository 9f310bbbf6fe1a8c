import type { Visibility } from "./account.ts";
import type { NotificationPolicy } from "./notification-policy.ts";
import type { QuotePolicy } from "./quote.ts";

export type Role = "user" | "moderator" | "admin" | "owner";

export const ROLES: readonly Role[] = ["user", "moderator", "admin", "owner"];

/** Sign-in credentials and preferences of a local account (never sent to clients as is). */
export interface User {
  accountId: string;
  email: string;
  /** scrypt hash in PHC-like form; see services/auth/passwords.ts. */
  passwordHash: string;
  role: Role;
  locale: string;
  /** Defaults for new posts, shown in `source` of the credential account. */
  defaultVisibility: Visibility;
  defaultSensitive: boolean;
  defaultLanguage: string | null;
  /** Who may quote new posts (`source[quote_policy]`); absent means Mastodon's default, public. */
  defaultQuotePolicy?: QuotePolicy;
  disabled: boolean;
  createdAt: string;
  /** How notifications from strangers are treated; absent means Mastodon's defaults. */
  notificationPolicy?: NotificationPolicy;
  /**
   * False while a sign-up waits for a moderator (WREN_REGISTRATIONS=approval). Absent: approved
   * (accounts made by the operator, and every account from before sign-ups could wait).
   */
  approved?: boolean;
  /** False until the email address is confirmed by its link. Absent: confirmed. */
  confirmed?: boolean;
  /** Why they want to join, as given at sign-up in approval mode. */
  signUpReason?: string;
  /** The app that signed them up (POST /api/v1/accounts); only it may resend the confirmation. */
  createdByAppId?: string;
  /** The invite they signed up with. */
  inviteCode?: string;
}

/** Mastodon's `approved?`: absent counts as approved. */
export const isApproved = (user: User): boolean => user.approved !== false;

/** Mastodon's `confirmed?`: absent counts as confirmed. */
export const isConfirmed = (user: User): boolean => user.confirmed !== false;
