// The languages a post can be written in, as offered to apps' language pickers
// (GET /api/v1/instance/languages). Mastodon lists the ISO 639-1 languages and a few others;
// Wren lists the ISO 639-1 set, named in English by the runtime's ICU data so no table of
// names is kept here. A status may still carry any well-formed code (compose-text.ts); this
// list is only what pickers show.

/** ISO 639-1, every two-letter code of the standard (the withdrawn `bh` and `mo` left out). */
const ISO_639_1 = `aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs
cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht
hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg
li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa
pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti
tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu`.split(/\s+/);

export interface Language {
  readonly code: string;
  readonly name: string;
}

let named: readonly Language[] | undefined;

/** The languages with their English names, in code order; built once (it never changes). */
export function postingLanguages(): readonly Language[] {
  if (!named) {
    const names = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });
    // A runtime without full ICU names fewer; a code it cannot name is shown as the code.
    named = ISO_639_1.map((code) => ({ code, name: names.of(code) ?? code }));
  }
  return named;
}
