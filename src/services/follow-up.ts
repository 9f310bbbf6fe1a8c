// Writes that follow the one a request acknowledges. An API write is answered by its primary
// record (the deleted status, the vote); what comes after it is derived or cosmetic (boosts of a
// deleted status are hidden by the views already; a poll's stored counts are recounted on every
// read). If such a write fails (a disk that just filled up) the request must still answer what
// it stored, not a 500 for a change that happened anyway: the failure is logged here instead,
// with what is left undone. ADR 0010.

import { getLogger } from "@logtape/logtape";

const logger = getLogger(["wren", "storage"]);

/** Runs `work` after the acknowledged write; a failure is logged, never thrown. */
export async function followUp(what: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    logger.warn("Stored the change but could not {what}: {error}", { what, error });
  }
}
