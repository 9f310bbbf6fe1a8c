// Progress of a long command on stderr (stdout keeps only the result): on a terminal a bar
// redrawn in place at most ten times a second; otherwise (a log file, a pipe, a test) a plain
// line now and then, so a log shows the command is alive without filling up.

export interface Progress {
  update(done: number, total: number): void;
  /** Writes the final state and ends the line. */
  finish(done: number, total: number): void;
}

const BAR_WIDTH = 30;

/** `total` below 0: unknown, only the count so far is shown. */
export function progressOnStderr(
  label: string,
  stream: Pick<NodeJS.WriteStream, "isTTY" | "write"> = process.stderr,
  unit = "files",
): Progress {
  const tty = stream.isTTY === true;
  const interval = tty ? 100 : 5000;
  let last = 0;
  const line = (done: number, total: number) => {
    if (total < 0) return `${label}: ${done} ${unit}`;
    const share = total === 0 ? 1 : Math.min(1, done / total);
    const percent = `${Math.floor(share * 100)}%`.padStart(4);
    if (!tty) return `${label}: ${done} of ${total} ${unit} (${percent.trim()})`;
    const filled = Math.round(share * BAR_WIDTH);
    return `${label} [${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}] ${percent} ${done}/${total} ${unit}`;
  };
  return {
    update(done, total) {
      const now = Date.now();
      if (now - last < interval) return;
      last = now;
      stream.write(tty ? `\r${line(done, total)}` : `${line(done, total)}\n`);
    },
    finish(done, total) {
      stream.write(tty ? `\r${line(done, total)}\n` : `${line(done, total)}\n`);
    },
  };
}
