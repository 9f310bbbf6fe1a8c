// The port through which use cases reach the operator's machine translation service. The
// implementation (federation/libre-translate.ts) speaks LibreTranslate's API; contexts without
// a configured service (the default, the CLI) have none, and translation is then unavailable.

export interface TranslatedText {
  /** The translation, in the format it was asked in (HTML). */
  text: string;
  /** The language the service recognised, when it was asked to detect it. */
  detectedSourceLanguage: string | null;
}

export interface Translator {
  /** The name clients show as `provider`. */
  readonly provider: string;
  /**
   * Translates HTML texts from `source` (null: let the service detect it) into `target`, one
   * result per text, in order. Throws TranslationUnavailableError when the service fails.
   */
  translate(
    texts: readonly string[],
    source: string | null,
    target: string,
  ): Promise<TranslatedText[]>;
  /** Each source language the service knows, with the languages it translates it into. */
  languages(): Promise<{ code: string; targets: string[] }[]>;
}

/** The service refused (quota, rate limit), failed or answered something unusable. */
export class TranslationUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TranslationUnavailableError";
  }
}
