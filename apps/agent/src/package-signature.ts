import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { verifyPackage } from '@rota/archive-check';
import type { RunPackage } from './package-cache.js';

/** A signed package whose bytes the signature does not cover: never unpacked. */
export class PackageSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PackageSignatureError';
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Checks a signed package's signature against the file about to be unpacked, hashed again
 * here: the cache's file could have been changed on this machine since it was downloaded, and
 * the server's word that it checked the signature at upload is not the bytes themselves.
 */
export async function checkPackageSignature(archive: string, pkg: RunPackage): Promise<void> {
  if (!pkg.signature) return;
  const sha256 = await sha256Of(archive);
  if (sha256 !== pkg.sha256.toLowerCase()) {
    throw new PackageSignatureError(
      `package ${pkg.version}: the file on disk is not the package the server announced; not unpacked`,
    );
  }
  if (!verifyPackage(sha256, pkg.signature.signature, pkg.signature.public_key)) {
    throw new PackageSignatureError(
      `package ${pkg.version}: its signature does not match its bytes; not unpacked`,
    );
  }
}
