import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, verifyPassword } from '../src/lib/passwords.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { pickLanguage } from '../src/lib/language.js';

describe('passwords', () => {
  it('hashes with scrypt and a salt, and verifies only the right password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct hors', a)).toBe(false);
    expect(await verifyPassword('x', 'garbage')).toBe(false);
  });

  it('generates readable random passwords', () => {
    const p = generatePassword();
    expect(p).toMatch(/^[A-HJ-NP-Za-km-z2-9]{16}$/);
    expect(generatePassword()).not.toBe(p);
  });
});

describe('secret box (AES-256-GCM)', () => {
  it('round-trips, never shows the plain text, and refuses a tampered value or another key', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal('db-pass-é');
    expect(sealed).not.toContain('db-pass');
    expect(box.open(sealed)).toBe('db-pass-é');
    expect(box.seal('same')).not.toBe(box.seal('same'));
    const parts = sealed.split(':');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join(':'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
  });
});

describe('language of answers', () => {
  it('picks pt or en from Accept-Language, English by default', () => {
    expect(pickLanguage(undefined)).toBe('en');
    expect(pickLanguage('pt-BR,pt;q=0.9,en;q=0.8')).toBe('pt');
    expect(pickLanguage('fr-FR, en;q=0.5, pt;q=0.7')).toBe('pt');
    expect(pickLanguage('de')).toBe('en');
    expect(pickLanguage('pt;q=0, en')).toBe('en');
  });
});
