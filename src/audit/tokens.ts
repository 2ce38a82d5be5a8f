/**
 * Annotators' link tokens (docs/ARCHITECTURE.md §14): 256 random bits each, shown once when made
 * and stored only as a SHA-256 hash (`hashToken` in src/model/audit.ts, where the store finds it).
 */
import { randomBytes as cryptoRandomBytes } from 'node:crypto';

const TOKEN_BYTES = 32;

/** A new annotator token: 32 random bytes, base64url (`randomBytes` passed in for tests). */
export function newToken(randomBytes: (size: number) => Buffer = cryptoRandomBytes): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}
