// The path a request is routed by: its pathname without one trailing slash, so that
// `/nodeinfo/2.1/` is `/nodeinfo/2.1`. Every route also answers with a trailing slash (Fedify's
// router is made insensitive to it, the HTTP layer's router is not strict); the documents Wren
// serves around Fedify's router match paths through here to agree with it.

export function routePath(request: Request): string {
  const path = new URL(request.url).pathname;
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}
