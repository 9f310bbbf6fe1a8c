// `/.well-known/host-meta`: the XRD document older clients and servers read to find WebFinger.
// Fedify does not serve it; the answer mirrors Mastodon's (an lrdd link template).

import { routePath } from "./route-path.ts";

export function hostMeta(request: Request, publicUrl: string): Response | null {
  if (routePath(request) !== "/.well-known/host-meta") return null;
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const template = `${publicUrl}/.well-known/webfinger?resource={uri}`.replaceAll("&", "&amp;");
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">\n' +
    `  <Link rel="lrdd" template="${template.replaceAll('"', "&quot;")}"/>\n` +
    "</XRD>\n";
  return new Response(request.method === "HEAD" ? null : body, {
    headers: { "content-type": "application/xrd+xml; charset=utf-8" },
  });
}
