// The job-queue port as services see it: put work on the durable queue, now or at a time. The
// runner that executes jobs lives in src/jobs/; services never run jobs themselves.

export interface EnqueueOptions {
  /** Not before this time (default: now). */
  runAt?: Date;
  /** Jobs waiting for the same event, released together by `release` (see Job.group). */
  group?: string;
  /** Jobs with the same key run one at a time, in order (see Job.orderingKey). */
  orderingKey?: string;
  /** Names the payload's `shared` part, the same in every job of this name (see Job.shared). */
  shared?: string;
  /**
   * The job's id, for a job that must exist once whoever enqueues it (a fixed id rewrites the
   * record rather than adding one); a new id by default.
   */
  id?: string;
}

export interface JobQueue {
  /** Stores the job durably and returns its id; it runs once due, surviving restarts. */
  enqueue(
    type: string,
    payload: Record<string, unknown>,
    options?: EnqueueOptions,
  ): Promise<string>;
  /**
   * Runs `write`, given the job's id, and stores the job durably no later than `write`'s first
   * change (in the same transaction where the storage can: JobStore.putAround); returns what
   * `write` returned. When `write` fails the job may or may not be stored (cancel it).
   */
  enqueueAround<T>(
    type: string,
    payload: Record<string, unknown>,
    options: EnqueueOptions,
    write: (id: string) => Promise<T>,
  ): Promise<T>;
  /** Makes the waiting jobs of `group` due now; returns how many were waiting for later. */
  release(group: string): Promise<number>;
  /** Removes a waiting job (one that turned out not to be needed); false when it was not there. */
  cancel(id: string): Promise<boolean>;
  /**
   * Removes a job whose work was done outside the runner, maybe a moment later with others
   * (JobStore.retire): only for a job that may run again harmlessly should the process end first.
   */
  retire(id: string): Promise<void>;
}

/**
 * A job that carries the effects of a write, stored no later than it (JobQueue.enqueueAround);
 * returns the job's id. When the write fails the job is dropped, if it was stored, and the
 * failure rethrown: left behind, it would only find nothing to do.
 */
export async function enqueueWithWrite(
  jobs: JobQueue,
  type: string,
  payload: Record<string, unknown>,
  options: EnqueueOptions,
  write: () => Promise<unknown>,
): Promise<string> {
  let id: string | undefined;
  try {
    await jobs.enqueueAround(type, payload, options, async (jobId) => {
      id = jobId;
      await write();
    });
    return id as string;
  } catch (error) {
    if (id !== undefined) await jobs.cancel(id).catch(() => {});
    throw error;
  }
}

/**
 * Thrown by a job's handler to be tried again at a given time (a remote service's Retry-After)
 * rather than after the runner's usual backoff; it counts as a failed attempt all the same.
 */
export class RetryAt extends Error {
  override name = "RetryAt";
  readonly at: Date;
  constructor(message: string, at: Date) {
    super(message);
    this.at = at;
  }
}
