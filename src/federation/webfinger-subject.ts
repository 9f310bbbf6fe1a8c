// Fedify answers a WebFinger query with the resource exactly as asked as the subject: the
// `acct:ALICE@…` spelling, or the actor URL itself. Peers store the subject as the account's
// handle, so Wren answers with the canonical handle instead, as Mastodon does, whichever was
// asked: the stored username (the actor's identifier, which `mapHandle` resolved
// case-insensitively) at the configured domain; the actor URL and profile page go in `aliases`.
import { routePath } from "./route-path.ts";

const WEBFINGER_PATH = "/.well-known/webfinger";

const PROFILE_PAGE = "http://webfinger.net/rel/profile-page";

interface Jrd {
  subject?: unknown;
  aliases?: unknown;
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

/** The actor URL, the profile page, then the aliases Fedify gave that are not the subject. */
function aliasesOf(jrd: Jrd, actorUrl: string, subject: string): string[] {
  const profiles = (jrd.links ?? []).flatMap((link) =>
    link.rel === PROFILE_PAGE && typeof link.href === "string" ? [link.href] : [],
  );
  const given = Array.isArray(jrd.aliases)
    ? jrd.aliases.filter((alias): alias is string => typeof alias === "string")
    : [];
  return [...new Set([actorUrl, ...profiles, ...given])].filter((alias) => alias !== subject);
}

/** The response with its subject made canonical; the same response when not a local actor's. */
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
  if (typeof jrd.subject !== "string") return response;
  const self = jrd.links?.find((link) => link.rel === "self");
  const identifier = actorIdentifier(self?.href, settings.publicUrl);
  if (identifier === undefined || typeof self?.href !== "string") return response;
  const subject = `acct:${identifier}@${settings.domain}`;
  const body = JSON.stringify({ ...jrd, subject, aliases: aliasesOf(jrd, self.href, subject) });
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(request.method === "HEAD" ? null : body, { status: 200, headers });
}
