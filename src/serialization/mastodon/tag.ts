// Mastodon's Status::Tag: a hashtag as embedded in a status. Pure. Names are stored lowercase.

export interface TagJson {
  name: string;
  url: string;
}

export function tagUrl(name: string, publicUrl: string): string {
  return `${publicUrl}/tags/${encodeURIComponent(name)}`;
}

export function serializeTag(name: string, publicUrl: string): TagJson {
  return { name, url: tagUrl(name, publicUrl) };
}
