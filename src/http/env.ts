// The per-request state every handler can read, and what the HTTP layer is built from.

import type { Authenticated } from "../services/auth/authenticate-token.ts";
import type { ServiceContext } from "../services/context.ts";
import type { SignedIn } from "./session/session.ts";

/** Who is calling: the token, its app, and (for user tokens) the account and its user. */
export type Viewer = Authenticated;

export interface HttpEnv {
  Variables: {
    requestId: string;
    /** The client's address: the socket peer, or what a trusted proxy forwarded. */
    clientAddress: string;
    /** Set by the access middleware; null when the request carried no token. */
    viewer: Viewer | null;
    /** The token's verified holder, looked up once per request (see middleware/caller.ts). */
    caller: Viewer | null | Promise<Viewer | null> | undefined;
    /** Storage.version() when that lookup began (kept signed-in answers need the same). */
    callerVersion: number;
    /** The browser's signed-in user, on pages behind requireSession (session/session.ts). */
    signedIn: SignedIn;
    /** A signed-in page's form fields, read (and CSRF-checked) once by requireSession. */
    form: Record<string, unknown>;
  };
}

export interface HttpLimits {
  /** Largest request body in bytes for ordinary endpoints. */
  bodyBytes: number;
  /** Largest request body for upload endpoints (media, avatars). */
  uploadBytes: number;
  /** Requests allowed per window and the window length (Mastodon: 300 per 5 minutes). */
  rateLimit: RateLimitSetting;
  /** Password sign-ins and token requests per client address (Mastodon: 25 per 5 minutes). */
  loginRateLimit: RateLimitSetting;
  /** Password sign-ins per login name, from any address (Mastodon: 25 per hour). */
  loginAccountRateLimit: RateLimitSetting;
  /** Requests of one user, all its tokens together (Mastodon: 1,500 per 5 minutes). */
  accountRateLimit: RateLimitSetting;
  /** Cap on the callers each in-memory limit tracks at once (bounds its memory). */
  maxTrackedKeys: number;
  /** Statuses one account may post per window, counted in storage (Mastodon: 300 per 3 hours). */
  statusBudget: RateLimitSetting;
  /** Media one account may upload per window, counted in storage (Mastodon: 30 per 30 minutes). */
  mediaBudget: RateLimitSetting;
  /** Follows one account may ask per window, counted in storage (Mastodon: 400 per day). */
  followBudget: RateLimitSetting;
  /** Inbox deliveries per client address. */
  inboxPerAddress: RateLimitSetting;
  /** Accepted inbox deliveries per sending server (the signature key's host). */
  inboxPerSender: RateLimitSetting;
}

export interface RateLimitSetting {
  requests: number;
  windowSeconds: number;
}

export interface HttpDeps {
  /** Addresses or CIDR ranges of reverse proxies whose X-Forwarded-For is believed. */
  trustedProxies: readonly string[];
  ctx: ServiceContext;
  limits: HttpLimits;
  /** How long Wren keeps anonymous answers of public reads itself (0–15 s; 0 keeps none). */
  publicCacheSeconds: number;
  /**
   * Signed-in answers of the common reads kept per token (ADR 60): how long at most (0–15 s; 0
   * keeps none) and what they may weigh together. None kept when absent.
   */
  signedInCache?: { seconds: number; bytes: number };
  /** Directory served under /media when the local file host is used; null otherwise. */
  mediaDirectory: string | null;
  /**
   * The federation's request handler (main.ts passes it; http never imports federation). It
   * answers what it owns (actors, WebFinger, NodeInfo…) and calls `next` for everything else,
   * including browsers asking an actor or note URL for HTML.
   */
  federationFetch?: (request: Request, next: () => Promise<Response>) => Promise<Response>;
}
