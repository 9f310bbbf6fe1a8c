// The inbox's first check, before Fedify verifies anything: the request (or, for a forwarded
// or relayed activity, its body) must be signed with a key that the activity's actor lists in
// its own document (actor-keys.ts). Fedify alone would believe a key document's claim about
// its owner, so a key at evil.example claiming to be trent's could post as trent (issue 14,
// item 1). Refused requests are answered 401 and never queued. Fedify's own checks still run
// after this one (digest, time window, the actor matching the signer).

import type { RequestContext } from "@fedify/fedify";
import { getLogger } from "@logtape/logtape";
import type { ServiceContext } from "../../services/context.ts";
import { verifySigner } from "../actor-keys.ts";
import { routePath } from "../route-path.ts";
import { INBOX_PATH } from "./failure.ts";

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

/** A 401 for an inbox POST not signed by its actor's own key; null to let Fedify go on. */
export async function refuseForgedSigner(
  request: Request,
  contextOf: (request: Request) => RequestContext<ServiceContext>,
): Promise<Response | null> {
  if (request.method !== "POST" || !INBOX_PATH.test(routePath(request))) return null;
  let parsed: unknown;
  try {
    parsed = await request.clone().json();
  } catch {
    return null; // Fedify answers 400 to what is not JSON.
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  const body = parsed as Json;
  const actorId = actorIdOf(body);
  if (actorId === null) return null; // Fedify answers 400 (no actor) or 401 (unsigned).
  const farewell = deletesItsActor(body, actorId);
  const verdict = await verifySigner(contextOf(request), request, body, actorId, {
    refetch: farewell,
  });
  if (verdict === "verified") return null;
  // Only a deleted actor's own farewell gets past without its document (gone-actor.ts).
  if (verdict === "gone" && farewell) return null;
  logger.info("Refused {type} {id} from {actor}: {why}", {
    type: body.type,
    id: body.id,
    actor: actorId.href,
    why:
      verdict === "forged"
        ? "no signature verifies with a key its actor's own document lists"
        : "its actor's document cannot be fetched",
  });
  return refuse(
    verdict === "forged"
      ? "The request is not signed with a key that its actor lists."
      : "The actor's document could not be fetched to check the signature.",
  );
}
