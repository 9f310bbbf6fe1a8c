// Says once, when a server starts, where ffmpeg and ffprobe come from, or, when they cannot be
// found, everything that was tried and what media then do without them: an operator reads it in
// the start log rather than learning it from videos that are never transcoded.

import { getLogger } from "@logtape/logtape";
import { lookUpFfmpeg } from "../../media/ffmpeg.ts";
import type { ServiceContext } from "../context.ts";

const logger = getLogger(["wren", "media"]);

export async function reportFfmpeg(ctx: ServiceContext): Promise<void> {
  const { tools, report } = await lookUpFfmpeg(ctx.settings.ffmpeg);
  if (tools) {
    logger.info("Media processing uses {report}", { report: report.join(", ") });
    return;
  }
  logger.error(
    "Media processing has no ffmpeg: {report}. Videos and audio are published as uploaded and " +
      "animated GIFs stay images. Run `npm install` again, install ffmpeg, or set " +
      "WREN_FFMPEG_PATH and WREN_FFPROBE_PATH (docs/configuration.md).",
    { report: report.join("; ") },
  );
}
