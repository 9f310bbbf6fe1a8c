// The inbox's first check, before Fedify verifies anything: the request (or, for a forwarded
// or relayed activity, its body) must be signed with a key that the activity's actor lists in
// its own document (actor-keys.ts). Fedify alone would believe a key document's claim about
// its owner, so a key at evil.example claiming to be trent's could post as trent (issue 14,
// item 1). Refused requests are answered 401 and never queued. The check is Fedify's
// verifyRequest (digest, time window) with the actor's own keys; a plain activity verified by
// its HTTP signature is then queued without Fedify's handler (accept.ts), everything else goes on
// to Fedify's own checks (the actor matching the signer among them).

import type { Context } from "@fedify/fedify";
import { getLogger } from "@logtape/logtape";
import type { ServiceContext } from "../../services/context.ts";
import { checkSigner } from "../actor-keys.ts";
import type { ReceivedPost } from "./received-body.ts";

const logger = getLogger(["wren", "federation", "inbox"]);

type Json = Record<string, unknown>;

/** The activity's actor id (the first one), or null when there is none to check. */
function actorIdOf(body: Json): URL | null {
  const actor = Array.isArray(body.actor) ? body.actor[0] : body.actor;
  const id = typeof actor === "object" && actor !== null ? (actor as Json).id : actor;
  return typeof id === "string" && URL.canParse(id) ? new URL(id) : null;
}

/** A Delete of the actor itself: its document may already answer 410 (gone-actor.ts). */
function deletesItsActor(body: Json, actorId: URL): boolean {
  const object = body.object;
  const objectId = typeof object === "object" && object !== null ? (object as Json).id : object;
  return body.type === "Delete" && objectId === actorId.href;
}

function refuse(message: string): Response {
  return Response.json({ error: message }, { status: 401 });
}

/**
 * What the gate found: a refusal to answer; or the actor whose own key signed the request
 * itself ("request") or the activity in its body ("body"), which Fedify may take from here;
 * or "unchecked" (not a JSON object, no actor, or a gone actor's farewell): Fedify's own
 * checks decide.
 */
export type GateResult =
  | { kind: "refused"; response: Response }
  | { kind: "signed"; actorId: URL; by: "request" | "body" }
  | { kind: "unchecked" };

/**
 * The gate for an inbox POST whose body, `received`, is `parsed` (undefined: not JSON): a 401
 * unless it is signed by its actor's own key.
 */
export async function checkInboxSigner(
  request: Request,
  parsed: unknown,
  context: () => Context<ServiceContext>,
  received: ReceivedPost,
): Promise<GateResult> {
  // Fedify answers 400 to what is not JSON.
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { kind: "unchecked" };
  }
  const body = parsed as Json;
  const actorId = actorIdOf(body);
  // Fedify answers 400 (no actor) or 401 (unsigned).
  if (actorId === null) return { kind: "unchecked" };
  const farewell = deletesItsActor(body, actorId);
  const { verdict, by } = await checkSigner(context(), request, body, actorId, {
    refetch: farewell,
    received,
  });
  if (verdict === "verified" && by !== null) return { kind: "signed", actorId, by };
  // Only a deleted actor's own farewell gets past without its document (gone-actor.ts).
  if (verdict === "gone" && farewell) return { kind: "unchecked" };
  logger.info("Refused {type} {id} from {actor}: {why}", {
    type: body.type,
    id: body.id,
    actor: actorId.href,
    why:
      verdict === "forged"
        ? "no signature verifies with a key its actor's own document lists"
        : "its actor's document cannot be fetched",
  });
  return {
    kind: "refused",
    response: refuse(
      verdict === "forged"
        ? "The request is not signed with a key that its actor lists."
        : "The actor's document could not be fetched to check the signature.",
    ),
  };
}
