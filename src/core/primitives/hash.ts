/**
 * Content hashes. One function for every SHA-256 in the code, so a file's fingerprint, its blob key in the
 * Store and the hash inside an approval are the same string for the same bytes.
 */
import { createHash } from 'node:crypto';

/** sha256 hex of bytes or of a string's UTF-8 encoding. */
export function sha256Hex(content: Uint8Array | string): string {
  return createHash('sha256').update(content).digest('hex');
}
