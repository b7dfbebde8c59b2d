import { createHash, randomBytes } from 'node:crypto';

/** Opaque bearer secrets (session tokens, recovery codes): 256 random bits. */
export function generateToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Only this digest is stored, so a copy of the database cannot be used to sign in. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
