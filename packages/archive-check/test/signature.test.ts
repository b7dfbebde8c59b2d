import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ed25519PublicKey, signPackage, verifyPackage } from '../src/index.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('package signatures', () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();

  it('verifies its own signature and nothing else', () => {
    const signature = signPackage(sha('package'), privateKey);
    expect(verifyPackage(sha('package'), signature, pem)).toBe(true);
    expect(verifyPackage(sha('tampered'), signature, pem)).toBe(false);
    const other = generateKeyPairSync('ed25519').publicKey;
    expect(verifyPackage(sha('package'), signature, other)).toBe(false);
    expect(verifyPackage(sha('package'), 'not base64!', pem)).toBe(false);
    expect(verifyPackage(sha('package'), Buffer.alloc(64).toString('base64'), pem)).toBe(false);
  });

  it('takes Ed25519 public keys only, named by the SHA-256 of their DER', () => {
    const parsed = ed25519PublicKey(pem);
    const der = publicKey.export({ type: 'spki', format: 'der' });
    expect(parsed?.fingerprint).toBe(createHash('sha256').update(der).digest('hex'));
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
    expect(ed25519PublicKey(rsa.export({ type: 'spki', format: 'pem' }).toString())).toBeNull();
    expect(ed25519PublicKey('garbage')).toBeNull();
    const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    // A private key given by mistake is refused, not turned into its public half and kept.
    expect(ed25519PublicKey(privatePem)).toBeNull();
  });
});
