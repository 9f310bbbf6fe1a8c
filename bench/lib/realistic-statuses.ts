// Statuses as a server federating with the fediverse holds them, for the scale bench's heap
// figures (issue 21): the in-memory cost per status grows with what the short bench statuses
// left out (remote uris of several servers' forms, reblogs with activity uris, replies, tags).
// Deterministic: the same count gives the same statuses.
//
// - 2,000 authors with 18-digit ids: 100 local (https://wren.example/users/user<n>), 1,900 on
//   200 remote servers: 70% Mastodon (…/users/<name>/statuses/<18-digit id>), 20% Misskey
//   (…/notes/<10-char aid>), 10% Pleroma (…/objects/<uuid>). Authors post unevenly (the n-th
//   most active about n² times less).
// - 10% reblogs (of one of the last 20,000 statuses; their uri is the Announce's:
//   …/statuses/<id>/activity, …/notes/<aid>/activity, …/activities/<uuid>), public, no tags.
// - Of the others: 30% replies (to one of the last 5,000 statuses, its author as
//   inReplyToAccountId), 50% no tag, 35% one, 15% two or three of 3,000 tags (skewed: a few
//   very common), 20% with media; 75% public, 12% unlisted, 10% private, 3% direct; 1% deleted.

import type { Visibility } from "../../src/domain/account.ts";
import type { Status } from "../../src/domain/status.ts";
import { makeStatus } from "../../src/storage/contract/fixtures.ts";

const AUTHORS = 2_000;
const LOCAL_AUTHORS = 100;
const DOMAINS = 200;

/** A small, fast, seeded generator (mulberry32): the same run gives the same statuses. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Software = "mastodon" | "misskey" | "pleroma";

interface Author {
  id: string;
  local: boolean;
  software: Software;
  /** The actor uri. */
  uri: string;
  domain: string;
}

export function realisticStatuses(ids: () => string): (n: number) => Status {
  const next = random(21);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const digits = (length: number) =>
    String(1 + Math.floor(next() * 9)) +
    Array.from({ length: length - 1 }, () => Math.floor(next() * 10)).join("");
  const base36 = (length: number) =>
    Array.from({ length }, () => Math.floor(next() * 36).toString(36)).join("");
  const uuid = () => {
    const hex = (n: number) =>
      Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join("");
    return `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
  };
  const authors: Author[] = Array.from({ length: AUTHORS }, (_, n) => {
    if (n < LOCAL_AUTHORS) {
      const uri = `https://wren.example/users/user${n}`;
      return { id: digits(18), local: true, software: "mastodon", uri, domain: "wren.example" };
    }
    const d = n % DOMAINS;
    const domain = `server${d}.example`;
    const software: Software = d % 10 < 7 ? "mastodon" : d % 10 < 9 ? "misskey" : "pleroma";
    const uri =
      software === "mastodon"
        ? `https://${domain}/users/person${n}`
        : software === "misskey"
          ? `https://${domain}/users/${base36(10)}`
          : `https://${domain}/users/person${n}`;
    return { id: digits(18), local: false, software, uri, domain };
  });
  const tags = Array.from({ length: 3_000 }, (_, n) => `topic${n}`);
  const visibilities: Visibility[] = ["public", "unlisted", "private", "direct"];
  /** The last statuses, for replies and reblogs. */
  const recent: { id: string; accountId: string }[] = [];

  return (n) => {
    const id = ids();
    const author = authors[Math.floor(AUTHORS * next() ** 2)] as Author;
    const reblog = n > 0 && next() < 0.1;
    const objectUri = (activity: boolean) => {
      if (author.local) return `${author.uri}/statuses/${id}${activity ? "/activity" : ""}`;
      if (author.software === "mastodon") {
        return `${author.uri}/statuses/${digits(18)}${activity ? "/activity" : ""}`;
      }
      if (author.software === "misskey") {
        return `https://${author.domain}/notes/${base36(10)}${activity ? "/activity" : ""}`;
      }
      return `https://${author.domain}/${activity ? "activities" : "objects"}/${uuid()}`;
    };
    let status: Status;
    if (reblog) {
      const original = recent[Math.floor(next() * Math.min(recent.length, 20_000))] ?? recent[0];
      status = makeStatus({
        id,
        accountId: author.id,
        local: author.local,
        uri: objectUri(true),
        reblogOfId: original?.id ?? null,
        tags: [],
        text: "",
        contentHtml: "",
      });
    } else {
      const r = next();
      const parent =
        next() < 0.3 && recent.length > 0
          ? recent[recent.length - 1 - Math.floor(next() * Math.min(recent.length, 5_000))]
          : undefined;
      const tagCount = r < 0.5 ? 0 : r < 0.85 ? 1 : 2 + Math.floor(next() * 2);
      const v = next();
      status = makeStatus({
        id,
        accountId: author.id,
        local: author.local,
        uri: objectUri(false),
        inReplyToId: parent?.id ?? null,
        inReplyToAccountId: parent?.accountId ?? null,
        tags: Array.from(
          { length: tagCount },
          () => tags[Math.floor(tags.length * next() ** 3)] as string,
        ),
        mediaIds: next() < 0.2 ? [digits(18)] : [],
        visibility: pick(
          v < 0.75
            ? ["public"]
            : v < 0.87
              ? ["unlisted"]
              : v < 0.97
                ? ["private"]
                : visibilities.slice(3),
        ),
        deleted: next() < 0.01,
      });
    }
    recent.push({ id, accountId: author.id });
    if (recent.length > 40_000) recent.splice(0, 20_000);
    return status;
  };
}
