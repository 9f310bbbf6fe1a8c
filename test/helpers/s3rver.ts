// A real S3-compatible server (the `s3rver` package) on a loopback port with its own temporary
// directory, for tests of the S3 file host. It knows one access key id (S3RVER) and refuses
// others, as a real service would; it does not verify SigV4 signatures themselves.

import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: { closeAllConnections?: () => void };
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

// s3rver is CommonJS without type declarations.
const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;

/** s3rver's fixed credentials. */
export const S3RVER_KEY_ID = "S3RVER";
export const S3RVER_SECRET = "S3RVER";
export const S3RVER_REGION = "us-east-1";

export interface TestS3 {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  directory: string;
  /** Creates a bucket through the S3 API. */
  createBucket(name: string): Promise<void>;
  /** Stops answering (the service is down); `resume()` serves the same data on the same port. */
  stop(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

async function stopServer(server: S3rverInstance): Promise<void> {
  // Keep-alive connections from the SDK would otherwise hold close() open.
  const closed = server.close();
  server.httpServer?.closeAllConnections?.();
  await closed;
}

export async function startTestS3(): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), "wren-s3-"));
  const serve = async (port: number) => {
    const instance = new S3rver({ address: "127.0.0.1", port, directory, silent: true });
    return { instance, address: await instance.run() };
  };
  let { instance: server, address } = await serve(0);
  let running = true;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    directory,
    async createBucket(name) {
      const client = new S3Client({
        endpoint,
        region: S3RVER_REGION,
        forcePathStyle: true,
        credentials: { accessKeyId: S3RVER_KEY_ID, secretAccessKey: S3RVER_SECRET },
      });
      try {
        await client.send(new CreateBucketCommand({ Bucket: name }));
      } finally {
        client.destroy();
      }
    },
    async stop() {
      await stopServer(server);
      running = false;
    },
    async resume() {
      ({ instance: server, address } = await serve(address.port));
      running = true;
    },
    async close() {
      if (running) await stopServer(server);
      running = false;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
