// The order in which ffmpeg and ffprobe are looked for: setting, PATH, npm. Each place holds a
// small script named like the tool that prints a version line naming its place, so a test sees
// which one was chosen; the last tests run the real npm-shipped binaries.

import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadConfig } from "../config/load.ts";
import { lookUpFfmpeg } from "./ffmpeg.ts";
import { bundledBinary, type LocateOptions, locateTool, type ToolName } from "./ffmpeg-location.ts";

describe("locateTool", () => {
  let root: string;
  /** A folder holding a runnable `ffmpeg` and `ffprobe` that answer `-version`. */
  const place = async (name: string): Promise<string> => {
    const dir = join(root, name);
    await mkdir(dir);
    for (const tool of ["ffmpeg", "ffprobe"]) {
      await writeFile(join(dir, tool), `#!/bin/sh\necho "${tool} version ${name}"\n`);
      await chmod(join(dir, tool), 0o755);
    }
    return dir;
  };
  let settingDir: string;
  let pathDir: string;
  let npmDir: string;
  let emptyDir: string;
  const npm = (tool: ToolName) => join(npmDir, tool);

  before(async () => {
    root = await mkdtemp(join(tmpdir(), "wren-ffmpeg-location-"));
    settingDir = await place("setting");
    pathDir = await place("path");
    npmDir = await place("npm");
    emptyDir = join(root, "empty");
    await mkdir(emptyDir);
  });
  after(() => rm(root, { recursive: true, force: true }));

  const everywhere = (): LocateOptions => ({
    settings: { ffmpegPath: join(settingDir, "ffmpeg"), ffprobePath: join(settingDir, "ffprobe") },
    searchPath: `${emptyDir}:${pathDir}`,
    bundled: npm,
  });

  it("takes the setting first, then PATH, then the npm package", async () => {
    for (const tool of ["ffmpeg", "ffprobe"] as const) {
      assert.deepEqual(await locateTool(tool, everywhere()), {
        found: true,
        path: join(settingDir, tool),
        source: "setting",
      });
      assert.deepEqual(await locateTool(tool, { ...everywhere(), settings: {} }), {
        found: true,
        path: join(pathDir, tool),
        source: "PATH",
      });
      assert.deepEqual(await locateTool(tool, { ...everywhere(), settings: {}, searchPath: "" }), {
        found: true,
        path: join(npmDir, tool),
        source: "npm",
      });
    }
  });

  it("looks each tool up on its own", async () => {
    const options = { ...everywhere(), settings: { ffprobePath: join(settingDir, "ffprobe") } };
    const ffmpeg = await locateTool("ffmpeg", options);
    assert.ok(ffmpeg.found && ffmpeg.source === "PATH");
    const ffprobe = await locateTool("ffprobe", options);
    assert.ok(ffprobe.found && ffprobe.source === "setting");
  });

  it("passes over a PATH entry that does not run, and relative PATH entries", async () => {
    const broken = join(root, "broken");
    await mkdir(broken);
    await writeFile(join(broken, "ffmpeg"), "#!/bin/sh\nexit 3\n");
    await chmod(join(broken, "ffmpeg"), 0o755);
    await writeFile(join(emptyDir, "ffprobe"), "not executable");
    const options = { settings: {}, searchPath: `.:${broken}:${emptyDir}`, bundled: npm };
    const ffmpeg = await locateTool("ffmpeg", options);
    assert.ok(ffmpeg.found && ffmpeg.source === "npm", JSON.stringify(ffmpeg));
    const ffprobe = await locateTool("ffprobe", options);
    assert.ok(ffprobe.found && ffprobe.source === "npm", JSON.stringify(ffprobe));
    await rm(join(emptyDir, "ffprobe"));
  });

  it("never falls back past a setting that does not run, and says which setting", async () => {
    const missing = join(root, "nowhere", "ffmpeg");
    const result = await locateTool("ffmpeg", {
      ...everywhere(),
      settings: { ffmpegPath: missing },
    });
    assert.equal(result.found, false);
    assert.match(!result.found ? result.problem : "", /WREN_FFMPEG_PATH=.*nowhere\/ffmpeg.*ENOENT/);
  });

  it("names every place tried when the tool is nowhere", async () => {
    const result = await locateTool("ffprobe", {
      settings: {},
      searchPath: emptyDir,
      bundled: () => null,
    });
    assert.equal(result.found, false);
    const problem = !result.found ? result.problem : "";
    assert.match(problem, /^ffprobe not found: /);
    assert.match(problem, /WREN_FFPROBE_PATH is not set/);
    assert.match(problem, /no ffprobe on PATH/);
    assert.match(problem, /@ffprobe-installer\/ffprobe/);
  });
});

describe("the npm-shipped ffmpeg and ffprobe", () => {
  it("are installed by npm install and run on this machine", async () => {
    for (const tool of ["ffmpeg", "ffprobe"] as const) {
      const path = bundledBinary(tool);
      assert.ok(path, `${tool} from npm`);
      const found = await locateTool(tool, { settings: {}, searchPath: "" });
      assert.deepEqual(found, { found: true, path, source: "npm" });
    }
  });

  it("are what a lookup without settings finds when PATH has none", async () => {
    const { tools, report } = await lookUpFfmpeg({ searchPath: loadConfig().searchPath });
    assert.ok(tools, report.join("; "));
    assert.equal(report.length, 2);
  });
});
