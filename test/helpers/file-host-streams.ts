// What every file host driver must do with streamed files (account archives): a local file
// stored whole under its key, then read back whole, by byte ranges, past its end, and not at
// all once deleted. Shared by the local-directory and S3 driver tests so the two cannot drift.

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FileHost } from "../../src/media/file-host.ts";

async function drain(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of stream) parts.push(part);
  return Buffer.concat(parts);
}

export async function assertStreamsFiles(host: FileHost, key: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "wren-streamed-"));
  try {
    // Over two megabytes of random bytes: a stream cut short or framed wrongly would show.
    const bytes = randomBytes(2 * 1024 * 1024 + 77);
    const path = join(dir, "archive.zip");
    await writeFile(path, bytes);
    await host.putFile(key, path, "application/zip");

    const whole = await host.read(key);
    assert.ok(whole, "the stored file is readable");
    assert.equal(whole.size, bytes.length);
    assert.ok((await drain(whole.body)).equals(bytes), "the whole file comes back byte for byte");

    const start = 1024 * 1024 - 5;
    const part = await host.read(key, { start, length: 4096 });
    assert.ok(part);
    assert.equal(part.size, bytes.length, "a range still names the whole size");
    assert.ok((await drain(part.body)).equals(bytes.subarray(start, start + 4096)));

    const tail = await host.read(key, { start: bytes.length - 10, length: 4096 });
    assert.ok(tail);
    assert.ok((await drain(tail.body)).equals(bytes.subarray(bytes.length - 10)));

    const past = await host.read(key, { start: bytes.length, length: 100 });
    assert.ok(past);
    assert.equal((await drain(past.body)).length, 0, "nothing past the end");

    await host.delete(key);
    assert.equal(await host.read(key), null);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
