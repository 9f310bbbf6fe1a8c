// TEST-ONLY: makes the durable writer fail the way a full, over-quota or read-only disk does,
// without root, mounts or a disk to fill. Only tests construct it (through startWren's or
// openJsonFileStorage's options); nothing in configuration or the environment can turn it on, so
// a production process never carries one.
//
// The fault strikes where the real one does: creating and writing the temporary file of a write
// (ENOSPC, EDQUOT, EROFS, EIO, EACCES…). A removal frees space, so a full disk or quota lets it
// through; a read-only file system refuses it too. `after` lets that many operations succeed
// first, so a test can stop a multi-file write between any two of its files.
//
// `failDirSyncWith` strikes later instead: the rename is done (the new file is what readers
// see) and the fsync of its directory fails, as EIO or a full journal can make it.

/** Codes under which removing a file still works. */
const REMOVAL_STILL_WORKS = new Set(["ENOSPC", "EDQUOT"]);

export class WriteFaults {
  #code: string | null = null;
  #remaining = 0;
  #dirSyncCode: string | null = null;
  /** Operations refused so far (lets a test see that its fault struck). */
  refused = 0;

  /** From now on (after `after` more file operations succeed) writes fail with `code`. */
  failWith(code: string, options: { after?: number } = {}): void {
    this.#code = code;
    this.#remaining = options.after ?? 0;
  }

  /** From now on directory fsyncs fail with `code` (file writes and renames still work). */
  failDirSyncWith(code: string): void {
    this.#dirSyncCode = code;
  }

  /** The disk is usable again. */
  clear(): void {
    this.#code = null;
    this.#dirSyncCode = null;
  }

  /** Called by the writer before it fsyncs a directory; throws the simulated errno error. */
  checkDirSync(dir: string): void {
    const code = this.#dirSyncCode;
    if (code === null) return;
    this.refused++;
    throw Object.assign(new Error(`${code}: simulated fault, fsync '${dir}'`), {
      code,
      syscall: "fsync",
      path: dir,
    });
  }

  /** Called by the writer before each file operation; throws the simulated errno error. */
  check(kind: "write" | "remove", path: string): void {
    const code = this.#code;
    if (code === null) return;
    if (kind === "remove" && REMOVAL_STILL_WORKS.has(code)) return;
    if (this.#remaining > 0) {
      this.#remaining--;
      return;
    }
    this.refused++;
    const syscall = kind === "write" ? "open" : "unlink";
    throw Object.assign(new Error(`${code}: simulated fault, ${syscall} '${path}'`), {
      code,
      syscall,
      path,
    });
  }
}
