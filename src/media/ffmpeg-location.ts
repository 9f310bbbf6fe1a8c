// Where ffmpeg and ffprobe come from, each looked up on its own in this order: the setting
// (WREN_FFMPEG_PATH / WREN_FFPROBE_PATH), then a program of that name on PATH (the system's, which
// its package manager keeps patched), then the static build that `npm install` brings
// (@ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe, for Linux, macOS and Windows). A
// candidate counts only once `-version` runs. A setting is never passed over: an operator who
// names a program wants that one, so when it does not run there is no ffmpeg and the reason says
// so, instead of another build being used silently.

import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { createRequire } from "node:module";
import { delimiter, isAbsolute, join } from "node:path";

export type ToolName = "ffmpeg" | "ffprobe";

export interface FfmpegSettings {
  /** WREN_FFMPEG_PATH. */
  ffmpegPath?: string | undefined;
  /** WREN_FFPROBE_PATH. */
  ffprobePath?: string | undefined;
  /** The PATH searched for a bare `ffmpeg`/`ffprobe` (the process's, read by the config). */
  searchPath?: string | undefined;
}

export type ToolSource = "setting" | "PATH" | "npm";

export type ToolLocation =
  | { found: true; path: string; source: ToolSource }
  | { found: false; problem: string };

export interface LocateOptions {
  settings: FfmpegSettings;
  /** The PATH to search (the process's own in production; tests pass their own). */
  searchPath: string;
  /** The npm-shipped binary of a tool, or null when its package is not installed here. */
  bundled?: (tool: ToolName) => string | null;
}

/** The npm packages that ship each tool; each exports `{ path }` of its platform's binary. */
export const BUNDLED_PACKAGES: Record<ToolName, string> = {
  ffmpeg: "@ffmpeg-installer/ffmpeg",
  ffprobe: "@ffprobe-installer/ffprobe",
};

const require = createRequire(import.meta.url);

/** The binary of the npm package, or null when it is missing or has no build for this platform. */
export function bundledBinary(tool: ToolName): string | null {
  try {
    // The packages throw (a string, for one of them) on an unsupported platform or a failed
    // install; either way there is no bundled binary.
    const loaded = require(BUNDLED_PACKAGES[tool]) as { path?: unknown };
    return typeof loaded.path === "string" ? loaded.path : null;
  } catch {
    return null;
  }
}

/** Runs `<path> -version`; the error's last line when it does not run. */
function runsVersion(path: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(path, ["-version"], { timeout: 10_000, killSignal: "SIGKILL" }, (error, stdout) => {
      if (!error && /version/i.test(String(stdout))) return resolve(null);
      const code = (error as NodeJS.ErrnoException | null)?.code;
      resolve(code ? String(code) : (error?.message.split("\n")[0] ?? "no version printed"));
    });
  });
}

/** The first file called `name` in the PATH's folders that this process may execute. */
async function onSearchPath(name: ToolName, searchPath: string): Promise<string | null> {
  for (const folder of searchPath.split(delimiter)) {
    // An empty or relative PATH entry would depend on the working directory: not trusted.
    if (!folder || !isAbsolute(folder)) continue;
    const candidate = join(folder, process.platform === "win32" ? `${name}.exe` : name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; the next folder.
    }
  }
  return null;
}

const SETTING: Record<ToolName, { key: keyof FfmpegSettings; variable: string }> = {
  ffmpeg: { key: "ffmpegPath", variable: "WREN_FFMPEG_PATH" },
  ffprobe: { key: "ffprobePath", variable: "WREN_FFPROBE_PATH" },
};

/** Finds one tool; a not-found answer lists every place tried and why each failed. */
export async function locateTool(tool: ToolName, options: LocateOptions): Promise<ToolLocation> {
  const { key, variable } = SETTING[tool];
  const configured = options.settings[key];
  if (configured) {
    const problem = await runsVersion(configured);
    return problem === null
      ? { found: true, path: configured, source: "setting" }
      : { found: false, problem: `${variable}=${configured} does not run (${problem})` };
  }
  const tried: string[] = [`${variable} is not set`];
  const onPath = await onSearchPath(tool, options.searchPath);
  if (onPath) {
    const problem = await runsVersion(onPath);
    if (problem === null) return { found: true, path: onPath, source: "PATH" };
    tried.push(`${onPath} on PATH does not run (${problem})`);
  } else {
    tried.push(`no ${tool} on PATH`);
  }
  const bundled = (options.bundled ?? bundledBinary)(tool);
  if (bundled) {
    const problem = await runsVersion(bundled);
    if (problem === null) return { found: true, path: bundled, source: "npm" };
    tried.push(`${bundled} from npm does not run (${problem}; try \`npm rebuild\`)`);
  } else {
    tried.push(`the npm package ${BUNDLED_PACKAGES[tool]} has no build for this machine`);
  }
  return { found: false, problem: `${tool} not found: ${tried.join("; ")}` };
}
