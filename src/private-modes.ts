// The modes of everything Wren writes under its data directory: readable and writable by the
// user Wren runs as, and by nobody else. The directory holds actors' private keys, password and
// token hashes and not-yet-published uploads; media that Wren serves need no other reader either
// (Wren serves them itself; a web server in front is given them through Wren, or via S3).

/** Every file Wren creates: owner read and write. */
export const PRIVATE_FILE_MODE = 0o600;

/** Every folder Wren creates: owner only (read, write, enter). */
export const PRIVATE_DIR_MODE = 0o700;

/** The bits that let other users (the group, everyone) at a file or folder. */
export const OTHERS_BITS = 0o077;
