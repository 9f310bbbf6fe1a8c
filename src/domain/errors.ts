// Errors that carry the HTTP meaning of a failed rule. Services throw them; the HTTP error
// mapper turns them into Mastodon's `{"error": …}` bodies. Anything else is a bug and becomes a
// 500 without details.

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500 | 503 | 507;

export class AppError extends Error {
  readonly status: ErrorStatus;
  readonly description: string | undefined;
  /** Extra fields Mastodon adds to some error bodies (e.g. `details` on validation failures). */
  readonly extra: Record<string, unknown> | undefined;

  constructor(
    status: ErrorStatus,
    message: string,
    options: { description?: string; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.status = status;
    this.description = options.description;
    this.extra = options.extra;
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message = "The access token is invalid") => new AppError(401, message);
export const forbidden = (message = "This action is outside the authorized scopes") =>
  new AppError(403, message);
export const notFound = (message = "Record not found") => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const gone = (message = "Gone") => new AppError(410, message);
export const payloadTooLarge = (message = "Request entity too large") => new AppError(413, message);
export const unprocessable = (message: string, extra?: Record<string, unknown>) =>
  new AppError(422, message, extra ? { extra } : {});
export const tooManyRequests = (message = "Too many requests") => new AppError(429, message);

/** What a client is told when the storage refuses a write (507 Insufficient Storage). */
export const CANNOT_STORE_MESSAGE =
  "The server cannot store data right now (disk full or read-only)";

/**
 * Error codes of a write that mean the storage cannot keep data, whatever the request was: the
 * disk (or quota) is full, the file system is read-only, the device failed, or the server's user
 * may not write there. What an operator must do differs; the client's answer does not.
 */
const CANNOT_STORE_REASONS: Readonly<Record<string, string>> = {
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is exhausted",
  EROFS: "the file system is read-only",
  EIO: "the disk reported an I/O error",
  EACCES: "permission denied (the server's user cannot write there)",
  EPERM: "operation not permitted (the server's user cannot write there)",
};

/**
 * A write the storage could not make: the HTTP error mapper answers it 507 with
 * CANNOT_STORE_MESSAGE. Thrown by the storage layer for its own data files, where every code
 * above means "cannot store". Not an AppError: those are refused rules, which some callers
 * swallow (a peer's invalid vote), while a storage failure must surface and be retried. Its
 * message is for the operator's log (cause and file), never sent to a client.
 */
export class StorageUnavailableError extends Error {
  readonly code: string;
  readonly reason: string;
  readonly path: string | undefined;

  constructor(code: string, path: string | undefined, cause: unknown) {
    const reason = CANNOT_STORE_REASONS[code] ?? code;
    super(`Cannot store data: ${reason} (${code}) at ${path ?? "(unknown file)"}`, { cause });
    this.name = "StorageUnavailableError";
    this.code = code;
    this.reason = reason;
    this.path = path;
  }
}

/**
 * The storage error for a failed write of `path`, or undefined when the failure is something
 * else (a bug, a missing file). `strict` limits it to codes that cannot mean anything but a full
 * or read-only disk (for errors from outside the storage layer, where EACCES or EIO may not be
 * about the data directory at all).
 */
export function cannotStore(
  error: unknown,
  path?: string,
  options: { strict?: boolean } = {},
): StorageUnavailableError | undefined {
  if (error instanceof StorageUnavailableError) return error;
  // An errno error of Node (`code`, `path`); domain code names no Node type.
  const { code, path: failedPath } = (error ?? {}) as { code?: unknown; path?: unknown };
  if (typeof code !== "string" || !Object.hasOwn(CANNOT_STORE_REASONS, code)) return undefined;
  if (options.strict && !STRICT_CODES.has(code)) return undefined;
  const where = path ?? (typeof failedPath === "string" ? failedPath : undefined);
  return new StorageUnavailableError(code, where, error);
}

const STRICT_CODES = new Set(["ENOSPC", "EDQUOT", "EROFS"]);
