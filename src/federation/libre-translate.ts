// The Translator port (services/translation/translator.ts) for a LibreTranslate-compatible
// service (POST /translate, GET /languages, as LibreTranslate documents them), the one Mastodon
// supports besides DeepL. The service is the operator's own choice (WREN_TRANSLATION_URL), so,
// as Mastodon's `allow_local: true`, it may be on this machine or a private network; the
// guarded fetch still caps its answers' size, redirects and time.

import { getUserAgent } from "@fedify/vocab-runtime";
import {
  type TranslatedText,
  TranslationUnavailableError,
  type Translator,
} from "../services/translation/translator.ts";
import { safeFetch } from "./safe-fetch.ts";

const MAX_BYTES = 1024 * 1024;
const TIMEOUT_MS = 20_000;

export function createLibreTranslate(settings: {
  /** Base URL; /translate and /languages are under it. */
  url: string;
  apiKey: string | undefined;
  publicUrl: string;
}): Translator {
  const userAgent = getUserAgent({ software: "Wren", url: new URL(settings.publicUrl) });

  async function request(method: "GET" | "POST", path: string, body?: object): Promise<unknown> {
    let response: Response;
    try {
      response = await safeFetch(
        `${settings.url}${path}`,
        {
          method,
          headers: {
            accept: "application/json",
            "user-agent": userAgent,
            ...(body ? { "content-type": "application/json" } : {}),
          },
          body: body ? new TextEncoder().encode(JSON.stringify(body)) : null,
        },
        { maxBytes: MAX_BYTES, timeoutMs: TIMEOUT_MS, isAllowedAddress: () => true },
      );
    } catch (error) {
      throw new TranslationUnavailableError(`The translation service cannot be reached (${error})`);
    }
    // Mastodon's readings of LibreTranslate's statuses: 429 too many requests, 403 quota.
    if (response.status === 429) {
      throw new TranslationUnavailableError("Too many requests to the translation service");
    }
    if (response.status === 403) {
      throw new TranslationUnavailableError("The translation service's quota is exceeded");
    }
    if (response.status < 200 || response.status >= 300) {
      throw new TranslationUnavailableError(`The translation service answered ${response.status}`);
    }
    try {
      return await response.json();
    } catch {
      throw new TranslationUnavailableError("The translation service answered no JSON");
    }
  }

  return {
    provider: "LibreTranslate",

    async translate(texts, source, target): Promise<TranslatedText[]> {
      const answer = (await request("POST", "/translate", {
        q: texts,
        source: source ?? "auto",
        target,
        format: "html",
        ...(settings.apiKey ? { api_key: settings.apiKey } : {}),
      })) as { translatedText?: unknown; detectedLanguage?: unknown };
      const translated = answer?.translatedText;
      if (
        !Array.isArray(translated) ||
        translated.length !== texts.length ||
        !translated.every((t) => typeof t === "string")
      ) {
        throw new TranslationUnavailableError("The translation service answered no translations");
      }
      const detected = Array.isArray(answer.detectedLanguage) ? answer.detectedLanguage : [];
      return translated.map((text: string, index) => {
        const language = (detected[index] as { language?: unknown } | undefined)?.language;
        return {
          text,
          detectedSourceLanguage: typeof language === "string" ? language : null,
        };
      });
    },

    async languages() {
      const answer = await request("GET", "/languages");
      if (!Array.isArray(answer)) {
        throw new TranslationUnavailableError("The translation service answered no languages");
      }
      return answer.flatMap((entry: { code?: unknown; targets?: unknown }) =>
        typeof entry?.code === "string" && Array.isArray(entry.targets)
          ? [
              {
                code: entry.code,
                targets: entry.targets.filter((t): t is string => typeof t === "string"),
              },
            ]
          : [],
      );
    },
  };
}
