// NodeInfo 2.0 beside Fedify's 2.1: Mastodon publishes only 2.0, so crawlers and older servers
// ask for it. Fedify serves one NodeInfo document; 2.0 is derived from it (the same figures,
// minus the fields 2.0 does not define) and the discovery document links both.

import { routePath } from "./route-path.ts";

const SCHEMA = "http://nodeinfo.diaspora.software/ns/schema";
const PATH_20 = "/nodeinfo/2.0";

type Fetch = (request: Request) => Promise<Response>;

function json(body: unknown, profile: string | null): Response {
  const type = profile ? `application/json; profile="${profile}#"` : "application/json";
  return new Response(JSON.stringify(body), { headers: { "content-type": type } });
}

/**
 * Answers `/nodeinfo/2.0` and adds its link to `/.well-known/nodeinfo`; null for any other
 * request. `fetch21` asks the federation for a path (the 2.1 document, the discovery links).
 */
export async function nodeInfo20(
  request: Request,
  publicUrl: string,
  fetch21: Fetch,
): Promise<Response | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const path = routePath(request);
  if (path === PATH_20) {
    const res = await fetch21(new Request(`${publicUrl}/nodeinfo/2.1`));
    if (!res.ok) return res;
    const info = (await res.json()) as Record<string, unknown> & {
      software: Record<string, unknown>;
    };
    // 2.0's software has only name and version; everything else is shared.
    const { repository: _repository, homepage: _homepage, ...software } = info.software;
    return json({ ...info, version: "2.0", software }, `${SCHEMA}/2.0`);
  }
  if (path === "/.well-known/nodeinfo") {
    const res = await fetch21(request);
    if (!res.ok) return res;
    const discovery = (await res.json()) as { links?: { rel: string; href: string }[] };
    const links = (discovery.links ?? []).filter((l) => l.rel !== `${SCHEMA}/2.0`);
    return json(
      { ...discovery, links: [{ rel: `${SCHEMA}/2.0`, href: `${publicUrl}${PATH_20}` }, ...links] },
      null,
    );
  }
  return null;
}
