// A unit of background work kept in storage until done, so it survives restarts and crashes.

export interface Job {
  id: string;
  /** Names the handler (e.g. "poll.expire", "media.process"). */
  type: string;
  payload: Record<string, unknown>;
  /** Not run before this ISO time. */
  runAt: string;
  /**
   * Jobs that wait for the same thing (deliveries held while one server is down) share a
   * group, so they can be released together (JobStore.advanceGroup) once it happens.
   */
  group?: string;
  /**
   * Jobs with the same key run one at a time, earliest runAt (then id) first: deliveries about
   * one object to one server (Fedify's orderingKey).
   */
  orderingKey?: string;
  /**
   * Names the part of the payload many jobs carry alike (its `shared` property: a fan-out's
   * activity and the sender's keys, the same in each of its deliveries). Jobs of one name have
   * the same `payload.shared`, so a backend may store it once per name (PostgreSQL, ADR 0067);
   * a job read back always has it.
   */
  shared?: string;
  attempts: number;
  lastError: string | null;
  /** Set when the job gave up after its last attempt; failed jobs are kept for inspection. */
  failedAt: string | null;
  createdAt: string;
}
