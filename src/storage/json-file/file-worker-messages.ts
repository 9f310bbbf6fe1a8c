// The messages between the main thread and a file worker thread (file-workers.ts).

/** One file to replace durably: `data` into `temp` (created, fsynced), then renamed to `path`. */
export interface FileWriteOp {
  path: string;
  temp: string;
  data: string;
}

export type FileRequest =
  | { kind: "replace"; id: number; ops: FileWriteOp[] }
  /** `text` appended at the descriptor's position (a journal opened for appending). */
  | { kind: "append"; id: number; fd: number; text: string; sync: boolean };

/** An errno error as it crosses threads (an Error's own fields do not). */
export interface FileErrorInfo {
  message: string;
  code?: string;
  errno?: number;
  syscall?: string;
  path?: string;
}

/** One entry per op of a replace (null: done), one for an append. */
export interface FileReply {
  id: number;
  errors: (FileErrorInfo | null)[];
}
