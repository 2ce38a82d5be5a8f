/**
 * Annotators' link tokens (docs/ARCHITECTURE.md §14): 256 random bits each, shown once when made
 * and stored only as a SHA-256 hash, so a copy of the store does not hand out working links.
 */
import { createHash, randomBytes as cryptoRandomBytes } from 'node:crypto';

const TOKEN_BYTES = 32;

export function newToken(randomBytes: (size: number) => Buffer = cryptoRandomBytes): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
