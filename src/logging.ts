// One logging pipeline for the whole process (Wren and, later, Fedify): LogTape writing to
// stderr, as readable text by default or as JSON lines (WREN_LOG_FORMAT=json) for log
// collectors. stdout stays free for what commands print (a token, an account id).

import { AsyncLocalStorage } from "node:async_hooks";
import {
  configure,
  dispose,
  getJsonLinesFormatter,
  getTextFormatter,
  type LogRecord,
  type Sink,
  type TextFormatter,
} from "@logtape/logtape";
import type { Config } from "./config/schema.ts";

export type LoggingConfig = Pick<Config, "logLevel" | "logFormat">;

/**
 * A synchronous stderr sink: records are written before the call returns, so nothing is lost
 * when the process exits right after logging (a failed start, the end of a shutdown).
 */
function stderrSink(formatter: TextFormatter): Sink {
  return (record: LogRecord) => {
    process.stderr.write(formatter(record));
  };
}

export function logFormatter(format: LoggingConfig["logFormat"]): TextFormatter {
  return format === "json"
    ? getJsonLinesFormatter()
    : getTextFormatter({ timestamp: "date-time-tz", value: "bare" });
}

/** Configures logging once per process; calling it again replaces the previous setup. */
export async function setupLogging(config: LoggingConfig): Promise<void> {
  await configure({
    reset: true,
    // Fedify logs with per-request context (LogTape's implicit contexts), which needs this;
    // without it every such log line is preceded by a warning.
    contextLocalStorage: new AsyncLocalStorage(),
    sinks: { stderr: stderrSink(logFormatter(config.logFormat)) },
    loggers: [
      // The root category: every library that logs through LogTape (Fedify included) lands here.
      { category: [], sinks: ["stderr"], lowestLevel: config.logLevel },
      // LogTape's own notices ("LogTape loggers are configured…") are noise unless they warn.
      {
        category: ["logtape", "meta"],
        sinks: ["stderr"],
        parentSinks: "override",
        lowestLevel: "warning",
      },
    ],
  });
}

export async function shutdownLogging(): Promise<void> {
  await dispose();
}
