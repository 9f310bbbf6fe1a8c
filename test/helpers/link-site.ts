// A little web site for preview-card tests: an article with OpenGraph tags and its image, and
// pages that give no card (no title, not HTML, broken markup). Records every path asked for.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { noisyJpeg } from "./images.ts";

export interface LinkSite {
  server: Server;
  origin: string;
  hits: string[];
  close(): Promise<void>;
}

const ARTICLE = `<!doctype html><html lang="en"><head>
<title>Fallback title</title>
<meta property="og:title" content="Wrens &amp; their songs">
<meta property="og:description" content="A field guide to small loud birds.">
<meta property="og:site_name" content="Bird Notes">
<meta property="og:image" content="/wren.jpg">
<meta property="og:image:alt" content="A wren on a branch">
<script>alert(1)</script></head><body><p>text</p></body></html>`;

/** A little web site: an article with OpenGraph tags, its image, and pages that give no card. */
export async function startSite(): Promise<LinkSite> {
  const image = await noisyJpeg(900, 600);
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    const html = (body: string) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(body);
    };
    if (req.url === "/article") return html(ARTICLE);
    if (req.url === "/wren.jpg") {
      res.writeHead(200, { "content-type": "image/jpeg" });
      return res.end(image);
    }
    if (req.url === "/broken") {
      return html(`<meta property="og:title" content="Broken <b>page</b>"><<<</div><meta foo`);
    }
    if (req.url === "/untitled") return html("<html><body>nothing here</body></html>");
    if (req.url === "/json") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end('{"title":"not a page"}');
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
