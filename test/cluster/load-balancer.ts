// A round-robin HTTP load balancer in front of the web processes: the one public address all
// processes of a cluster share (WREN_PUBLIC_URL), so peers fetching an actor or key reach
// whichever web process is next, as behind a real one.

import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoadBalancer {
  url: string;
  port: number;
  /** The web processes' listen addresses, taken in turn. */
  setTargets(urls: readonly string[]): void;
  close(): Promise<void>;
}

/** Listens on `port` (0: any free one) and forwards each request to the next target. */
export async function startLoadBalancer(port = 0): Promise<LoadBalancer> {
  let targets: string[] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    const target = targets[next++ % Math.max(targets.length, 1)];
    if (!target) {
      res.writeHead(503).end();
      return;
    }
    const upstream = request(
      new URL(req.url ?? "/", target),
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    setTargets(urls) {
      targets = [...urls];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
