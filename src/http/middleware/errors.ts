// The one error mapper: every failure becomes Mastodon's `{"error": …}` body with the right
// status. Unexpected errors are logged with the request id and answered as a bare 500, never
// with a stack trace. A write the disk refused (full, over quota, read-only, failing, not ours
// to write) is 507 Insufficient Storage, logged for the operator with its cause and file.

import { getLogger } from "@logtape/logtape";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  AppError,
  CANNOT_STORE_MESSAGE,
  cannotStore,
  type StorageUnavailableError,
} from "../../domain/errors.ts";
import type { HttpEnv } from "../env.ts";

const logger = getLogger(["wren", "http"]);

export function errorBody(error: string, description?: string, extra?: Record<string, unknown>) {
  return { error, ...(description ? { error_description: description } : {}), ...extra };
}

/** One log line per this many milliseconds while the disk keeps refusing writes. */
const STORAGE_LOG_INTERVAL_MS = 60_000;
let storageLoggedAt = Number.NEGATIVE_INFINITY;
let storageUnlogged = 0;

/**
 * Logs a refused write: the first at once, then one line a minute with how many were refused
 * meanwhile (a full disk under load would otherwise write a line per request, to the same disk).
 */
function logStorageFailure(err: StorageUnavailableError, c: Context<HttpEnv>): void {
  const now = Date.now();
  if (now - storageLoggedAt < STORAGE_LOG_INTERVAL_MS) {
    storageUnlogged++;
    return;
  }
  logger.error(
    "{problem}; {method} {path} ({requestId}) answered 507, and {others} more refused since the last such line. Free space or make the data directory writable: no restart is needed.",
    {
      problem: err.message,
      method: c.req.method,
      path: c.req.path,
      requestId: c.get("requestId"),
      others: storageUnlogged,
    },
  );
  storageLoggedAt = now;
  storageUnlogged = 0;
}

export function handleError(err: unknown, c: Context<HttpEnv>): Response {
  // The storage layer names its refusals; a bare ENOSPC/EDQUOT/EROFS from elsewhere (the media
  // directory) means the same.
  const storage = cannotStore(err, undefined, { strict: true });
  if (storage) {
    logStorageFailure(storage, c);
    return c.json(errorBody(CANNOT_STORE_MESSAGE), 507);
  }
  if (err instanceof AppError) {
    return c.json(
      errorBody(err.message, err.description, err.extra),
      err.status as ContentfulStatusCode,
    );
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const message = status === 413 ? "Request entity too large" : err.message || "Bad request";
    return c.json(errorBody(message), status);
  }
  logger.error("Unhandled error on {method} {path} ({requestId}): {error}", {
    method: c.req.method,
    path: c.req.path,
    requestId: c.get("requestId"),
    error: err,
  });
  return c.json(errorBody("Internal server error"), 500);
}

export function handleNotFound(c: Context<HttpEnv>): Response {
  return c.json(errorBody("Record not found"), 404);
}
