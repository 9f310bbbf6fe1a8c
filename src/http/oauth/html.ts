// Server-rendered HTML for the OAuth pages: one stylesheet (allowed by its hash in the CSP), no
// scripts, no external assets (an empty data: icon keeps browsers from asking for /favicon.ico).
// Every interpolated value goes through escapeHtml.

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { HttpEnv } from "../env.ts";
import { contentSecurityPolicy, escapeHtml, inlineStyle } from "../web/html.ts";

const STYLE = inlineStyle(`
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#f6f8fa;--card:#fff;--line:#d1d9e0;--accent:#5b3cc4;--accent-fg:#fff;--error:#b42318}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--card:#161b22;--line:#3d444d;--accent:#a08cf0;--accent-fg:#0d1117;--error:#ff7b72}}
*{box-sizing:border-box}
body{margin:0;padding:3rem 1rem;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:28rem;margin:0 auto;padding:2rem;background:var(--card);border:1px solid var(--line);border-radius:12px}
@media (max-width:30rem){body{padding:1rem .75rem}main{padding:1.25rem}}
h1{font-size:1.4rem;margin:0 0 .5rem}
h2{font-size:1rem;margin:1.5rem 0 .5rem}
p{margin:.5rem 0}
.muted{color:var(--muted)}
ul{padding-left:1.25rem;margin:.25rem 0}
li{margin:.25rem 0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input[type=text],input[type=password],input[type=email],textarea{width:100%;padding:.6rem .7rem;font:inherit;color:inherit;background:transparent;border:1px solid var(--line);border-radius:8px}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{flex:1;padding:.65rem 1rem;font:inherit;font-weight:600;border-radius:8px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer}
button.secondary{background:transparent;color:var(--fg);border-color:var(--line)}
.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
.check input{margin-top:.35rem}
.field-error{color:var(--error);margin:.25rem 0 0;font-size:.9rem}
.error{color:var(--error);border:1px solid currentColor;border-radius:8px;padding:.5rem .75rem}
.code{font-size:1.1rem;word-break:break-all;padding:.75rem;border:1px dashed var(--line);border-radius:8px;user-select:all}
a{color:var(--accent)}
`);

/** No scripts at all, no framing (the consent button must not be clickjacked), no referrers. */
const CSP = contentSecurityPolicy({ style: STYLE });

export function page(title: string, body: string, lang = "en"): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${STYLE.css}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** Pages hold one-time secrets (codes, CSRF tokens): never cache them, never leak them. */
export function setPageHeaders(c: Context<HttpEnv>): void {
  c.header("Content-Security-Policy", CSP);
  c.header("X-Frame-Options", "DENY");
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "no-referrer");
  c.header("Cache-Control", "no-cache, no-store, max-age=0, must-revalidate");
}

export function htmlResponse(
  c: Context<HttpEnv>,
  status: ContentfulStatusCode,
  html: string,
): Response {
  setPageHeaders(c);
  return c.html(html, status);
}
