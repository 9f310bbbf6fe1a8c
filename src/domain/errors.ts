// Errors that carry the HTTP meaning of a failed rule. Services throw them; the HTTP error
// mapper turns them into Mastodon's `{"error": …}` bodies. Anything else is a bug and becomes a
// 500 without details.

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500 | 503;

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
