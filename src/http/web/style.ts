// The one stylesheet of the public pages, inlined and allowed by its hash (no external assets).
// Light and dark follow the reader's system setting.

import { inlineStyle } from "./html.ts";

/** Poll result bars: `.p0`…`.p100` set the width in percent. */
const BAR_WIDTHS = Array.from({ length: 101 }, (_, i) => `.p${i}{width:${i}%}`).join("");

export const WEB_STYLE = inlineStyle(`${BAR_WIDTHS}
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#eef0f3;--card:#fff;--line:#d1d9e0;--accent:#5b3cc4;--bar:#d9d0f7}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--card:#161b22;--line:#3d444d;--accent:#a08cf0;--bar:#3b3260}}
*{box-sizing:border-box}
body{margin:0;padding:1.5rem 1rem;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:40rem;margin:0 auto}
a{color:var(--accent)}
a:focus-visible,summary:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;overflow:hidden;margin-bottom:1rem}
.header{display:block;width:100%;aspect-ratio:3/1;object-fit:cover;background:var(--line)}
.profile-body{padding:0 1.25rem 1.25rem}
.profile-avatar{display:block;width:96px;height:96px;border-radius:12px;border:4px solid var(--card);margin-top:-48px;background:var(--card);object-fit:cover}
h1{font-size:1.4rem;margin:.5rem 0 0;line-height:1.25;overflow-wrap:anywhere}
.acct{color:var(--muted);margin:0;overflow-wrap:anywhere}
.bio{margin:.75rem 0}
.bio p,.content p{margin:0 0 .6rem}
.bio p:last-child,.content p:last-child{margin-bottom:0}
.fields{margin:.75rem 0;border:1px solid var(--line);border-radius:8px;overflow:hidden}
.fields div{display:grid;grid-template-columns:minmax(6rem,35%) 1fr;border-top:1px solid var(--line)}
.fields div:first-child{border-top:0}
.fields dt,.fields dd{margin:0;padding:.5rem .75rem;overflow-wrap:anywhere}
.fields dt{font-weight:600;color:var(--muted)}
.fields .verified{background:rgba(40,160,80,.12)}
.counts{display:flex;flex-wrap:wrap;gap:1.25rem;list-style:none;padding:0;margin:.75rem 0 0;color:var(--muted)}
.counts strong{color:var(--fg)}
.status{padding:1rem 1.25rem;border-top:1px solid var(--line)}
.status:first-child{border-top:0}
.boosted{color:var(--muted);font-size:.9rem;margin:0 0 .5rem}
.author{display:flex;gap:.75rem;align-items:center;text-decoration:none;color:inherit;margin-bottom:.5rem}
.author img.avatar{width:46px;height:46px;border-radius:8px;object-fit:cover;flex:none}
.author .name{display:block;font-weight:600;overflow-wrap:anywhere}
.author .handle{display:block;color:var(--muted);font-size:.9rem;overflow-wrap:anywhere}
.content{overflow-wrap:anywhere}
.status.standalone .content{font-size:1.15rem}
details.spoiler summary{cursor:pointer;font-weight:600;margin-bottom:.5rem}
.media{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:.5rem;margin-top:.75rem}
.media a,.media figure{display:block;margin:0}
.media img,.media video{display:block;width:100%;height:auto;max-height:28rem;object-fit:cover;border-radius:8px;background:var(--line)}
.media audio{width:100%}
.media figcaption{font-size:.85rem;color:var(--muted);margin-top:.25rem}
details.sensitive summary{cursor:pointer;color:var(--muted);margin-top:.75rem}
.poll{list-style:none;padding:0;margin:.75rem 0 0}
.poll li{position:relative;margin:.35rem 0;padding:.35rem .6rem;border:1px solid var(--line);border-radius:6px;overflow:hidden}
.poll .bar{position:absolute;inset:0 auto 0 0;background:var(--bar);z-index:0}
.poll .option{position:relative;z-index:1;display:flex;justify-content:space-between;gap:1rem}
.poll-summary{color:var(--muted);font-size:.9rem;margin:.25rem 0 0}
.meta{display:flex;flex-wrap:wrap;gap:.25rem 1rem;color:var(--muted);font-size:.9rem;margin-top:.75rem}
.meta a{color:inherit}
.pager{display:flex;justify-content:space-between;padding:1rem 1.25rem;border-top:1px solid var(--line)}
.empty{padding:1rem 1.25rem;color:var(--muted);margin:0}
.section{padding:1rem 1.25rem}
h2{font-size:1.1rem;margin:0 0 .5rem}
.rules{margin:0;padding-left:1.5rem}
.rules li{margin:.25rem 0}
.error-page{padding:2rem 1.25rem;text-align:center}
.error-page h1{margin-bottom:.5rem}
img.emoji{height:1.2em;width:1.2em;object-fit:contain;vertical-align:-.2em;margin:0 .05em}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:30rem){body{padding:.5rem}.profile-body{padding:0 .9rem .9rem}.status{padding:.9rem}}
`);
