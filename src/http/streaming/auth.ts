// Who opens a stream, as Mastodon's streaming server finds out: the token comes from the
// Authorization header, else the `access_token` query parameter, else the Sec-WebSocket-Protocol
// header (browsers cannot set headers on a WebSocket). Only user tokens stream (Mastodon 4.2).

import { scopesAdmit } from "../../domain/scopes.ts";
import { authenticateToken } from "../../services/auth/authenticate-token.ts";
import type { ServiceContext } from "../../services/context.ts";
import {
  parseStream,
  type StreamName,
  type StreamParams,
  StreamRequestError,
  type StreamSpec,
  streamScope,
} from "../../services/streaming/streams.ts";
import type { StreamViewer } from "./client.ts";

export interface StreamAuthError {
  status: 401;
  error: string;
}

export function streamingToken(
  authorization: string | undefined,
  accessToken: string | null,
  protocol: string | undefined,
): string | undefined {
  if (authorization) return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? "";
  if (accessToken) return accessToken;
  // Several offered protocols come comma-separated; the token is the one offered.
  const offered = protocol?.split(",")[0]?.trim();
  return offered || undefined;
}

/** The token's user, or the 401 Mastodon answers. */
export async function streamViewer(
  ctx: ServiceContext,
  token: string | undefined,
): Promise<StreamViewer | StreamAuthError> {
  if (token === undefined) return { status: 401, error: "Missing access token" };
  const holder = token === "" ? null : await authenticateToken(ctx, token);
  if (!holder?.account) return { status: 401, error: "Invalid access token" };
  return { accountId: holder.account.id, tokenId: holder.token.id, scopes: holder.token.scopes };
}

/** Refuses a stream the token's scopes do not admit (Mastodon: 401). */
function checkStreamScope(viewer: StreamViewer, name: StreamName): void {
  if (!scopesAdmit(viewer.scopes, [streamScope(name)])) {
    throw new StreamRequestError("Access token does not have the required scopes", 401);
  }
}

/** Refuses a list stream of a list that is not the viewer's (Mastodon: 401). */
async function checkStreamList(
  ctx: ServiceContext,
  viewer: StreamViewer,
  listId: string | undefined,
): Promise<void> {
  if (listId === undefined) return;
  const list = /^\d+$/.test(listId) ? await ctx.storage.lists.get(listId) : undefined;
  if (!list || list.accountId !== viewer.accountId) {
    throw new StreamRequestError("Not authorized to stream this list", 401);
  }
}

/** The stream a connection asks for, once the viewer may have it; throws StreamRequestError. */
export async function authorizeStream(
  ctx: ServiceContext,
  viewer: StreamViewer,
  name: string,
  params: StreamParams,
): Promise<StreamSpec> {
  const spec = parseStream(name, params);
  checkStreamScope(viewer, spec.name);
  await checkStreamList(ctx, viewer, spec.list);
  return spec;
}
