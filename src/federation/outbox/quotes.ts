// Outgoing FEP-044f activities. A local post quoting a remote one asks its author for approval
// (QuoteRequest); once approved, its Note, now naming the stamp, goes out again (Update). A
// remote post quoting a local one gets our answer, Accept with the stamp or Reject, and a
// revoke is a Delete of the stamp, to the quoting author.

import type { Account } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import {
  toQuoteAnswer,
  toQuoteRequest,
  toStampDelete,
} from "../../serialization/activitypub/quotes.ts";
import type { Outbox } from "./deliver.ts";
import { sendUpdate } from "./statuses.ts";

interface QuoteEnds {
  quoting: Status;
  quotingAuthor: Account;
  quotedAuthor: Account;
}

/** The two authors of a quote, if both are known and the quoted post is known. */
async function endsOf(outbox: Outbox, quoting: Status): Promise<QuoteEnds | undefined> {
  const quotedId = quoting.quote?.quotedStatusId;
  if (!quotedId) return undefined;
  const quoted = await outbox.ctx.storage.statuses.get(quotedId);
  if (!quoted) return undefined;
  const accounts = await outbox.ctx.storage.accounts.getMany([quoting.accountId, quoted.accountId]);
  const quotingAuthor = accounts.get(quoting.accountId);
  const quotedAuthor = accounts.get(quoted.accountId);
  return quotingAuthor && quotedAuthor ? { quoting, quotingAuthor, quotedAuthor } : undefined;
}

/** A new local post quoting a remote one: ask its author. */
export async function sendQuoteRequest(outbox: Outbox, status: Status): Promise<void> {
  if (!status.local || status.quote?.state !== "pending") return;
  const ends = await endsOf(outbox, status);
  if (!ends || ends.quotedAuthor.domain === null) return;
  const request = toQuoteRequest(ends.quotingAuthor, status, status.quote.quotedUri);
  await outbox.send(ends.quotingAuthor, [ends.quotedAuthor], request);
}

/** A quote approved (quote.accepted) or refused (quote.rejected). */
export async function sendQuoteAnswer(outbox: Outbox, status: Status): Promise<void> {
  const quote = status.quote;
  if (!quote) return;
  // Our own quote, approved by a remote author: the Note now names the stamp.
  if (status.local) {
    if (quote.state === "accepted") await sendUpdate(outbox, status, true);
    return;
  }
  const ends = await endsOf(outbox, status);
  if (!ends || ends.quotedAuthor.domain !== null || quote.requestUri === null) return;
  const stamp = quote.state === "accepted" ? quote.authorizationUri : null;
  if (quote.state !== "accepted" && quote.state !== "rejected") return;
  const answer = toQuoteAnswer(
    ends.quotedAuthor,
    {
      id: quote.requestUri,
      actorUri: ends.quotingAuthor.uri,
      quotingUri: status.uri,
      quotedUri: quote.quotedUri,
    },
    stamp,
  );
  await outbox.send(ends.quotedAuthor, [ends.quotingAuthor], answer);
}

/** A local author revoked their approval of a remote post's quote: Delete the stamp. */
export async function sendStampDelete(outbox: Outbox, status: Status): Promise<void> {
  const stamp = status.quote?.authorizationUri;
  if (status.local || !stamp) return;
  const ends = await endsOf(outbox, status);
  if (!ends || ends.quotedAuthor.domain !== null) return;
  const activity = toStampDelete(ends.quotedAuthor, stamp, ends.quotingAuthor.uri);
  await outbox.send(ends.quotedAuthor, [ends.quotingAuthor], activity);
}
