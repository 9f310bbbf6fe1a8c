import type { Visibility } from "./account.ts";
import type { NotificationPolicy } from "./notification-policy.ts";
import type { QuotePolicy } from "./quote.ts";

export type Role = "user" | "moderator" | "admin";

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
}
