// Mastodon's Translation entity from a status translation. Pure. What the service returned is
// not trusted as HTML: the content is cleaned to the same allowlist as remote statuses
// (Mastodon runs it through its strict sanitizer too), and the plain texts are decoded from the
// HTML-escaped form they were sent in.

import { decodeEntities, htmlText } from "../../domain/text/html.ts";
import type { StatusTranslation } from "../../services/translation/translate-status.ts";
import { sanitizeRemoteHtml } from "../activitypub/sanitize-html.ts";

export interface TranslationJson {
  content: string;
  spoiler_text: string;
  poll: { id: string; options: { title: string }[] } | null;
  media_attachments: { id: string; description: string }[];
  detected_source_language: string;
  language: string;
  provider: string;
}

export function serializeTranslation(translation: StatusTranslation): TranslationJson {
  return {
    content: sanitizeRemoteHtml(translation.content),
    spoiler_text: htmlText(translation.spoilerText),
    poll: translation.poll
      ? {
          id: translation.poll.id,
          options: translation.poll.options.map((title) => ({ title: htmlText(title) })),
        }
      : null,
    media_attachments: translation.media.map((m) => ({
      id: m.id,
      description: decodeEntities(m.description),
    })),
    detected_source_language: translation.detectedSourceLanguage,
    language: translation.language,
    provider: translation.provider,
  };
}
