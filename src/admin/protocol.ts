// The admin socket's wire format: one request and one response per connection, each a single
// line of JSON. Request `{"op": "account.create", "args": {…}}`; response `{"result": …}` or
// `{"error": "…", "status": 422}` (status as in the HTTP API, so callers can tell a refused
// request from a failure).

import { join } from "node:path";

/**
 * Requests are small (a username, a password), the largest being a custom emoji image (256 KB,
 * as base64); anything larger is refused.
 */
export const MAX_MESSAGE_BYTES = 512 * 1024;

/** Responses may carry more (a listing later on), but are still bounded for the client. */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

export const SOCKET_FILE = "admin.sock";

export interface AdminRequest {
  op: string;
  args: Record<string, unknown>;
}

export type AdminResponse = { result: unknown } | { error: string; status: number };

export function adminSocketPath(dataDir: string): string {
  return join(dataDir, SOCKET_FILE);
}

/** A request the server refused or failed, with the status it gave. */
export class AdminError extends Error {
  readonly status: number;

  constructor(message: string, status: number) {
    super(message);
    this.name = "AdminError";
    this.status = status;
  }
}
