// A custom emoji: `:shortcode:` in text shows this image. Local ones are added by admins; remote
// ones arrive with federated content (domain set).

export interface CustomEmoji {
  id: string;
  shortcode: string;
  /** null for local emojis. */
  domain: string | null;
  /** File-host keys of the image and its static (first-frame) version ("" for remote ones). */
  imageKey: string;
  staticKey: string;
  /** Remote emojis: the image where its server publishes it (not copied here). */
  remoteUrl?: string;
  category: string | null;
  visibleInPicker: boolean;
  createdAt: string;
  updatedAt: string;
}

export const SHORTCODE_PATTERN = /^[a-zA-Z0-9_]{2,}$/;

/** Shortcodes written as `:code:` in a text, in order of first appearance, without repeats. */
export function shortcodesIn(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/:([a-zA-Z0-9_]{2,}):/g)) found.add(match[1] as string);
  return [...found];
}

/** Where an emoji's image is: its remote URL, or the file-host URL of its key. */
export function emojiImageUrl(
  emoji: CustomEmoji,
  fileUrl: (key: string) => string,
  which: "image" | "static" = "image",
): string {
  if (emoji.remoteUrl) return emoji.remoteUrl;
  return fileUrl(which === "image" ? emoji.imageKey : emoji.staticKey);
}
