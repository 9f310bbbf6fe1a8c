// Settling the quote a remote post asked approval for (its server's QuoteRequest), or that our
// own QuoteRequest got an answer to. The stamp's URI and the state are decided by the caller
// (federation/inbox/quotes.ts: the local author's policy, or a stamp it verified); this records
// them, and remembers which of our quotes a remote stamp approves, so that its Delete (a
// revoke) finds the quote.

import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { changeQuote } from "./change-quote.ts";

const stampKey = (stampUri: string) => ["quote-stamps", stampUri];

/** A remote post's request to quote a local one: accepted with our stamp, or rejected. */
export function answerQuoteRequest(
  ctx: ServiceContext,
  quoting: Status,
  quoted: Status,
  requestUri: string,
  stampUri: string | null,
): Promise<Status | undefined> {
  return changeQuote(ctx, quoting.id, stampUri === null ? "rejected" : "accepted", {
    requestUri,
    authorizationUri: stampUri,
    quotedStatusId: quoted.id,
  });
}

/** The quoted author's server approved our quote with this (verified) stamp, or refused it. */
export async function settleOwnQuote(
  ctx: ServiceContext,
  quoting: Status,
  stampUri: string | null,
): Promise<void> {
  if (stampUri === null) {
    await changeQuote(ctx, quoting.id, "rejected");
    return;
  }
  await ctx.storage.kv.set({ key: stampKey(stampUri), value: quoting.id, expiresAt: null });
  await changeQuote(ctx, quoting.id, "accepted", { authorizationUri: stampUri });
}

/** The stamp was deleted by its author: the quote it approved is revoked. */
export async function stampDeleted(
  ctx: ServiceContext,
  stampUri: string,
  byAccountId: string,
): Promise<boolean> {
  const entry = await ctx.storage.kv.get(stampKey(stampUri));
  if (typeof entry?.value !== "string") return false;
  const quoting = await ctx.storage.statuses.get(entry.value);
  const quotedId = quoting?.quote?.quotedStatusId;
  if (!quoting || quoting.quote?.authorizationUri !== stampUri || !quotedId) return false;
  const quoted = await ctx.storage.statuses.get(quotedId);
  if (quoted?.accountId !== byAccountId) return false;
  await changeQuote(ctx, quoting.id, "revoked");
  return true;
}
