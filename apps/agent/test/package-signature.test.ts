import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPackage } from '@rota/archive-check';
import type { RunPackage } from '../src/package-cache.js';
import { checkPackageSignature, PackageSignatureError } from '../src/package-signature.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rota-signature-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const bytes = Buffer.from('PK\u0003\u0004 a robot package');
const sha256 = createHash('sha256').update(bytes).digest('hex');

function runPackage(signature: RunPackage['signature']): RunPackage {
  return {
    rota_robot_versions_id: 1,
    version: '1.0.0',
    sha256,
    size_bytes: bytes.length,
    format: 'zip',
    download_path: `/package/${sha256}`,
    signature,
  };
}

describe('package signature check before unpacking', () => {
  it('lets a package signed by its key through, and an unsigned one', async () => {
    const file = path.join(dir, 'good.zip');
    await writeFile(file, bytes);
    const signature = signPackage(sha256, privateKey);
    await expect(
      checkPackageSignature(file, runPackage({ signature, public_key: pem })),
    ).resolves.toBeUndefined();
    await expect(checkPackageSignature(file, runPackage(null))).resolves.toBeUndefined();
  });

  it('refuses a file changed after download and a signature of other bytes or another key', async () => {
    const file = path.join(dir, 'tampered.zip');
    await writeFile(file, Buffer.concat([bytes, Buffer.from('!')]));
    const signature = signPackage(sha256, privateKey);
    await expect(
      checkPackageSignature(file, runPackage({ signature, public_key: pem })),
    ).rejects.toThrow(/not the package the server announced/);

    const good = path.join(dir, 'same.zip');
    await writeFile(good, bytes);
    const otherSha = createHash('sha256').update('other').digest('hex');
    const wrong = signPackage(otherSha, privateKey);
    await expect(
      checkPackageSignature(good, runPackage({ signature: wrong, public_key: pem })),
    ).rejects.toBeInstanceOf(PackageSignatureError);
    const stranger = generateKeyPairSync('ed25519').privateKey;
    const forged = signPackage(sha256, stranger);
    await expect(
      checkPackageSignature(good, runPackage({ signature: forged, public_key: pem })),
    ).rejects.toThrow(/signature does not match/);
  });
});
