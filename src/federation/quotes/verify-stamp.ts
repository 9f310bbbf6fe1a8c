// Checking a QuoteAuthorization stamp (FEP-044f) before a quote of a remote post counts as
// approved: the stamp must come from the quoted author's server, be dereferenceable there,
// and name this very quote (interactingObject) of this very post (interactionTarget) by its
// author. A stamp that fails any of these leaves the quote pending.

import { QuoteAuthorization } from "@fedify/vocab";
import { type FederationContext, fetchObject } from "../remote-actors.ts";

export interface StampClaim {
  stampUri: string;
  quotingUri: string;
  quotedUri: string;
  /** The quoted post's author (actor id), who alone may approve. */
  quotedAuthorUri: string;
}

export async function verifyStamp(fctx: FederationContext, claim: StampClaim): Promise<boolean> {
  if (!URL.canParse(claim.stampUri) || !URL.canParse(claim.quotedAuthorUri)) return false;
  const stampUrl = new URL(claim.stampUri);
  if (stampUrl.origin !== new URL(claim.quotedAuthorUri).origin) return false;
  const stamp = await fetchObject(fctx, stampUrl);
  if (!(stamp instanceof QuoteAuthorization) || stamp.id?.href !== stampUrl.href) return false;
  return (
    stamp.interactingObjectId?.href === claim.quotingUri &&
    stamp.interactionTargetId?.href === claim.quotedUri &&
    stamp.attributionId?.href === claim.quotedAuthorUri
  );
}
