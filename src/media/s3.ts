// The S3 file host: files in a bucket of any S3-compatible service (AWS S3, MinIO, Garage,
// Ceph, R2…), fetched by clients straight from the bucket's public URL (or a CDN in front of it),
// so media traffic never passes through Wren. Keys are the same server-made keys as for the local
// directory, checked by the same rule.

import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { S3Client } from "@aws-sdk/client-s3";
import type { FileHost } from "./file-host.ts";
import { isSafeKey } from "./local-directory.ts";

export interface S3HostOptions {
  /** The service's base URL, e.g. `https://s3.eu-central-1.amazonaws.com` or `http://127.0.0.1:9000`. */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `endpoint/bucket/key` addressing instead of `bucket.endpoint/key`. */
  forcePathStyle: boolean;
  /** Base URL clients fetch files from; defaults to the bucket's own URL. */
  publicUrl?: string;
}

// Keys never change meaning: a new version of a file always gets a new key, so caches may keep
// a file for good (the same policy as the local directory's /media route).
const CACHE_CONTROL = "public, max-age=31536000, immutable";

/** The bucket's own URL: `endpoint/bucket` in path style, `bucket.endpoint-host` otherwise. */
export function defaultS3PublicUrl(endpoint: string, bucket: string, forcePathStyle: boolean) {
  const url = new URL(endpoint);
  const path = url.pathname.replace(/\/+$/, "");
  if (forcePathStyle) return `${url.origin}${path}/${bucket}`;
  return `${url.protocol}//${bucket}.${url.host}${path}`;
}

function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`Unsafe file key: ${JSON.stringify(key)}`);
}

type Sdk = typeof import("@aws-sdk/client-s3");

// Loaded on first use, not with the module: most processes (a local media directory, one-off
// commands) never need the SDK, and loading it costs about a fifth of a second of CPU.
let sdk: Promise<Sdk> | undefined;
const loadSdk = () => {
  sdk ??= import("@aws-sdk/client-s3");
  return sdk;
};

/** True for "there is no such object" answers (NoSuchKey on GET, a bare 404 on HEAD-like calls). */
function isMissing(error: unknown, { S3ServiceException }: Sdk): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return (
    error.name === "NoSuchKey" ||
    error.name === "NotFound" ||
    error.$metadata.httpStatusCode === 404
  );
}

export function createS3Host(options: S3HostOptions): FileHost {
  const makeClient = ({ S3Client }: Sdk): S3Client =>
    new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: {
        accessKeyId: options.accessKeyId,
        secretAccessKey: options.secretAccessKey,
      },
      // Many S3-compatible servers do not understand the SDK's default aws-chunked upload framing
      // (with trailing checksums) and would store the framing inside the object (DESIGN §6).
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      // A stuck storage service must fail the upload (and let the job retry), not hang it.
      requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
    });
  let client: S3Client | undefined;
  /** The SDK and the one client of this host, made on first use. */
  const connect = async () => {
    const loaded = await loadSdk();
    client ??= makeClient(loaded);
    return { ...loaded, client };
  };
  const base = (
    options.publicUrl ??
    defaultS3PublicUrl(options.endpoint, options.bucket, options.forcePathStyle)
  ).replace(/\/+$/, "");

  return {
    async put(key, bytes, contentType) {
      assertSafeKey(key);
      const { client, PutObjectCommand } = await connect();
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: key,
          Body: bytes,
          ContentLength: bytes.byteLength,
          ContentType: contentType,
          CacheControl: CACHE_CONTROL,
        }),
      );
    },

    async putFile(key, path, contentType) {
      assertSafeKey(key);
      const { client, PutObjectCommand } = await connect();
      // One PUT streamed from the file (S3 takes up to 5 GiB so; a zip archive stops at 4 GiB).
      const { size } = await stat(path);
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: key,
          Body: createReadStream(path),
          ContentLength: size,
          ContentType: contentType,
          CacheControl: CACHE_CONTROL,
        }),
      );
    },

    async read(key, range) {
      assertSafeKey(key);
      const s3 = await connect();
      const { client, GetObjectCommand } = s3;
      if (range && range.length <= 0) {
        const whole = await this.read(key);
        await whole?.body.cancel();
        return whole ? { size: whole.size, body: new Blob([]).stream() } : null;
      }
      try {
        const answer = await client.send(
          new GetObjectCommand({
            Bucket: options.bucket,
            Key: key,
            ...(range ? { Range: `bytes=${range.start}-${range.start + range.length - 1}` } : {}),
          }),
        );
        if (!answer.Body) return null;
        // "bytes 0-99/1234" names the whole size; without a range the length is the size.
        const total = /\/([0-9]+)$/.exec(answer.ContentRange ?? "")?.[1];
        const size = total !== undefined ? Number(total) : (answer.ContentLength ?? 0);
        return { size, body: answer.Body.transformToWebStream() as ReadableStream<Uint8Array> };
      } catch (error) {
        if (isMissing(error, s3)) return null;
        // A range past the end (an offset at the size) is no error for a reader: nothing more.
        if (error instanceof s3.S3ServiceException && error.$metadata.httpStatusCode === 416) {
          const whole = await this.read(key);
          await whole?.body.cancel();
          return whole ? { size: whole.size, body: new Blob([]).stream() } : null;
        }
        throw error;
      }
    },

    async get(key) {
      assertSafeKey(key);
      const s3 = await connect();
      const { client, GetObjectCommand } = s3;
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket: options.bucket, Key: key }),
        );
        if (!answer.Body) return null;
        return await answer.Body.transformToByteArray();
      } catch (error) {
        if (isMissing(error, s3)) return null;
        throw error;
      }
    },

    async delete(key) {
      assertSafeKey(key);
      const s3 = await connect();
      const { client, DeleteObjectCommand } = s3;
      try {
        // S3 answers 204 for a key that is not there; some compatible servers answer 404.
        await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: key }));
      } catch (error) {
        if (isMissing(error, s3)) return;
        throw error;
      }
    },

    url(key) {
      assertSafeKey(key);
      return `${base}/${key}`;
    },
  };
}
