import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Names a key without revealing it: a backup records it so that a restore can tell, before
 * anything is written, whether the key it was given opens the backup's secrets. The key is 32
 * random bytes, so its hash cannot be turned back into it.
 */
export function keyFingerprint(key: Buffer): string {
  return createHash('sha256').update('rota secret key\0').update(key).digest('hex');
}

/**
 * AES-256-GCM for secrets kept at rest (parameter passwords, environment credentials):
 * `v1:<iv>:<tag>:<ciphertext>`, base64url parts. A tampered value fails to open.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  fingerprint(): string {
    return keyFingerprint(this.key);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join(':');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || data === undefined)
      throw new Error('Not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }
}
