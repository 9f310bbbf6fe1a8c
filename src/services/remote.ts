// The port through which use cases reach other servers (search with resolve, @user@host
// mentions). The federation layer implements it; contexts without federation (offline CLI,
// unit tests) use `offlineRemote`, which finds nothing.

import type { Account } from "../domain/account.ts";
import type { Status } from "../domain/status.ts";

export interface ResolveOptions {
  /** Fetch the actor again even when its record is recent (a move checks fresh aliases). */
  refresh?: boolean;
}

export interface RemoteResolver {
  /**
   * The account for `user@host` (WebFinger) or an actor URL, fetched and stored as a local
   * record when not known yet (or stale); undefined when it cannot be found or is refused.
   */
  resolveAccount(handleOrUrl: string, options?: ResolveOptions): Promise<Account | undefined>;
  /** The status at an object URL (Note, Question, Article…), fetched and stored if new. */
  resolveStatus(url: string): Promise<Status | undefined>;
}

export const offlineRemote: RemoteResolver = {
  async resolveAccount() {
    return undefined;
  },
  async resolveStatus() {
    return undefined;
  },
};
