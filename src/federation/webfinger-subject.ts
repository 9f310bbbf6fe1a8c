// Fedify answers an `acct:` WebFinger query with the resource exactly as asked (`acct:ALICE@…`)
// as the subject. Peers store the subject as the account's handle, so Wren answers with the
// canonical spelling instead, as Mastodon does: the stored username (the actor's identifier,
// which `mapHandle` resolved case-insensitively) at the configured domain.
import { routePath } from "./route-path.ts";

const WEBFINGER_PATH = "/.well-known/webfinger";

interface Jrd {
  subject?: unknown;
  links?: { rel?: unknown; href?: unknown }[];
}

/** The identifier in a local actor URI (`<publicUrl>/users/<identifier>`), or undefined. */
function actorIdentifier(href: unknown, publicUrl: string): string | undefined {
  const prefix = `${publicUrl}/users/`;
  if (typeof href !== "string" || !href.startsWith(prefix)) return undefined;
  const rest = href.slice(prefix.length);
  if (rest === "" || rest.includes("/")) return undefined;
  try {
    return decodeURIComponent(rest);
  } catch {
    return undefined;
  }
}

/** The response with its subject made canonical, or the same response when it is not an acct: answer. */
export async function canonicalWebFingerSubject(
  request: Request,
  response: Response,
  settings: { publicUrl: string; domain: string },
): Promise<Response> {
  if (routePath(request) !== WEBFINGER_PATH || response.status !== 200) return response;
  const text = await response.clone().text();
  let jrd: Jrd;
  try {
    jrd = JSON.parse(text) as Jrd;
  } catch {
    return response;
  }
  if (typeof jrd.subject !== "string" || !/^acct:/i.test(jrd.subject)) return response;
  const self = jrd.links?.find((link) => link.rel === "self");
  const identifier = actorIdentifier(self?.href, settings.publicUrl);
  if (identifier === undefined) return response;
  const body = JSON.stringify({ ...jrd, subject: `acct:${identifier}@${settings.domain}` });
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(request.method === "HEAD" ? null : body, { status: 200, headers });
}
