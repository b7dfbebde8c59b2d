import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/**
 * What a package's Ed25519 signature covers: this prefix and the package's hex SHA-256, as
 * ASCII. The prefix keeps a Rota package signature from being any other message signed with the
 * same key (and the reverse).
 */
const CONTEXT = 'rota-package-sha256:';
const SHA256 = /^[0-9a-f]{64}$/;

const messageOf = (sha256: string) => {
  const hex = sha256.toLowerCase();
  if (!SHA256.test(hex)) throw new Error(`not a SHA-256: ${sha256}`);
  return Buffer.from(CONTEXT + hex, 'ascii');
};

/** An Ed25519 public key in PEM (SPKI), with its fingerprint; null for anything else. */
export function ed25519PublicKey(pem: string): { key: KeyObject; fingerprint: string } | null {
  // createPublicKey would take a private key too and derive its public half: refusing it
  // keeps a private key pasted by mistake from being stored.
  if (!/^\s*-----BEGIN PUBLIC KEY-----/.test(pem) || pem.includes('PRIVATE')) return null;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    return null;
  }
  if (key.asymmetricKeyType !== 'ed25519') return null;
  return { key, fingerprint: keyFingerprint(key) };
}

/** Hex SHA-256 of the key's DER (SPKI) bytes: how a trusted key is named. */
export function keyFingerprint(key: KeyObject): string {
  return createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** The base64 signature of a package whose hex SHA-256 is `sha256` (what `rota sign` makes). */
export function signPackage(sha256: string, privateKey: KeyObject | string): string {
  return sign(null, messageOf(sha256), privateKey).toString('base64');
}

/** The signature bytes when `text` is base64 of exactly 64 bytes; null otherwise. */
export function signatureBytes(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) return null;
  const bytes = Buffer.from(trimmed, 'base64');
  return bytes.length === 64 ? bytes : null;
}

/** Whether `signature` (base64) is `publicKey`'s signature of the package of `sha256`. */
export function verifyPackage(
  sha256: string,
  signature: string,
  publicKey: KeyObject | string,
): boolean {
  const bytes = signatureBytes(signature);
  if (!bytes) return false;
  try {
    return verify(null, messageOf(sha256), publicKey, bytes);
  } catch {
    return false;
  }
}
