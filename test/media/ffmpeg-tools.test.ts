// Which ffmpeg a real `wren serve` uses, as its start log says: on a machine without a system
// ffmpeg, the build `npm install` brought; the one named by WREN_FFMPEG_PATH when set; and when
// a named one does not run, a clear error naming the setting (the server still starts).

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { bundledBinary } from "../../src/media/ffmpeg-location.ts";
import { serveEnv, startServe } from "../cli/run-wren.ts";

const LISTENING = /Wren is listening on (http:\/\/\S+)\n/;

describe("the ffmpeg a server uses", () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "wren-ffmpeg-tools-"));
  });
  after(() => rm(root, { recursive: true, force: true }));

  /** Starts and stops a server with `extra` settings; returns what it logged. */
  async function startLog(name: string, extra: Record<string, string>): Promise<string> {
    const server = startServe(
      await serveEnv(join(root, name), {
        WREN_LOG_LEVEL: "info",
        // Only Node's own folder: no system ffmpeg, whatever the machine has.
        PATH: dirname(process.execPath),
        ...extra,
      }),
    );
    try {
      await server.waitForOutput(LISTENING);
    } finally {
      server.child.kill("SIGTERM");
    }
    assert.equal((await server.exited).code, 0, server.stderr());
    return server.stderr();
  }

  it("uses the npm package's ffmpeg and ffprobe when the system has none", async () => {
    const log = await startLog("npm", {});
    assert.ok(log.includes(`ffmpeg: ${bundledBinary("ffmpeg")} (from the npm package)`), log);
    assert.ok(log.includes(`ffprobe: ${bundledBinary("ffprobe")} (from the npm package)`), log);
  });

  it("uses the programs the settings name", async () => {
    const ffmpeg = bundledBinary("ffmpeg") ?? "";
    const log = await startLog("setting", { WREN_FFMPEG_PATH: ffmpeg });
    assert.ok(log.includes(`ffmpeg: ${ffmpeg} (from the setting)`), log);
  });

  it("says clearly that there is no ffmpeg when the named one does not run", async () => {
    const missing = join(root, "no-such", "ffmpeg");
    const log = await startLog("missing", { WREN_FFMPEG_PATH: missing });
    assert.ok(
      log.includes(
        `Media processing has no ffmpeg: WREN_FFMPEG_PATH=${missing} does not run (ENOENT)`,
      ),
      log,
    );
    assert.match(log, /Videos and audio are published as uploaded/);
  });
});
