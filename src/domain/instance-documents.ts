// Limits of the instance's documents (about page, privacy policy, terms of service), shared by
// the service that stores them and the command that reads their files.

/** Larger than any real policy; keeps a mistaken file (an image, a log) out of the store. */
export const DOCUMENT_MAX_BYTES = 512 * 1024;
