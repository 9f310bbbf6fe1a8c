// Does a request ask for ActivityPub JSON rather than a page? The actor and status addresses
// answer both: peers send `Accept: application/activity+json` (or ld+json with the
// ActivityStreams profile), browsers send text/html. Of the two, the higher quality wins; on a
// tie, the one listed first.

const ACTIVITY_TYPES = new Set(["application/activity+json", "application/ld+json"]);

interface Preference {
  type: string;
  q: number;
  index: number;
}

function preferences(accept: string): Preference[] {
  return accept.split(",").map((part, index) => {
    const [type = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    return { type, q: Number.isFinite(q) ? q : 0, index };
  });
}

export function wantsActivityJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranked = preferences(accept)
    .filter((p) => p.q > 0 && (p.type === "text/html" || ACTIVITY_TYPES.has(p.type)))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const first = ranked[0];
  return first !== undefined && ACTIVITY_TYPES.has(first.type);
}
