// Configuration and logging for the one-shot commands. They log warnings and errors only (unless
// WREN_LOG_LEVEL asks for less or more), so their stdout and stderr stay readable.

import { loadConfig } from "../config/load.ts";
import type { Config } from "../config/schema.ts";
import { setupLogging } from "../logging.ts";

export async function commandConfig(): Promise<Config> {
  const config = loadConfig();
  const quiet = config.logLevel === "info" ? "warning" : config.logLevel;
  await setupLogging({ logFormat: config.logFormat, logLevel: quiet });
  return config;
}
