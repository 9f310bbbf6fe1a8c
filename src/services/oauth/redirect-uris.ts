// Redirect URIs of OAuth apps, checked the way Doorkeeper checks them: absolute, no fragment, or
// the out-of-band marker that asks us to show the code instead of redirecting. Native apps use
// custom schemes (`com.example.app:/callback`), so any scheme is allowed except the few that
// run code or read local files in a browser.

export const OOB_URI = "urn:ietf:wg:oauth:2.0:oob";

const FORBIDDEN_SCHEMES = new Set(["javascript:", "data:", "vbscript:", "file:", "blob:"]);
const MAX_TOTAL_LENGTH = 2000;

/** A string (newline- or space-separated, as Mastodon accepts) or a list, as a clean list. */
export function parseRedirectUris(input: string | readonly string[] | undefined | null): string[] {
  const items = typeof input === "string" ? [input] : (input ?? []);
  return items
    .flatMap((item) => item.split(/\s+/))
    .map((uri) => uri.trim())
    .filter((uri) => uri.length > 0);
}

/** The first problem with the list as a Rails-style message tail ("must be …"), or null. */
export function redirectUriProblem(uris: readonly string[]): string | null {
  if (uris.length === 0) return "can't be blank";
  if (uris.join("\n").length > MAX_TOTAL_LENGTH) {
    return `is too long (maximum is ${MAX_TOTAL_LENGTH} characters)`;
  }
  for (const uri of uris) {
    if (uri === OOB_URI) continue;
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      // No scheme at all is the common mistake ("app.example/callback"); say so precisely.
      return /^[a-z][a-z0-9+.-]*:/i.test(uri) ? "must be a valid URI." : "must be an absolute URI.";
    }
    if (FORBIDDEN_SCHEMES.has(url.protocol)) return "is forbidden by the server.";
    if (uri.includes("#")) return "cannot contain a fragment.";
  }
  return null;
}

/** Is `given` one of the app's registered URIs? Exact comparison, as RFC 6749 §3.1.2.3 asks. */
export function isRegisteredRedirectUri(registered: readonly string[], given: string): boolean {
  return registered.includes(given);
}
