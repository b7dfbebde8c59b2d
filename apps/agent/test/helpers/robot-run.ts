import { rm } from 'node:fs/promises';
import { AGENT_PROTOCOL_BASE, type ClaimedRun } from '@rota/contract';
import { afterEach, beforeEach } from 'vitest';
import { makeZip, sha256, tempDir } from './archives.js';
import { FakeRotaServer } from './fake-server.js';

/** A robot version's package holding one `main.js`, and where the fake server serves it. */
export interface RobotPackage {
  version: string;
  data: Buffer;
  sha256: string;
  downloadPath: string;
}

export function robotPackage(mainJs: string, version = '1.0.0'): RobotPackage {
  const data = makeZip([{ name: 'main.js', data: mainJs }]);
  const sha = sha256(data);
  return { version, data, sha256: sha, downloadPath: `${AGENT_PROTOCOL_BASE}/package/${sha}` };
}

/** A claimed run of `node main.js [args]` from `pkg`. */
export function claimedRun(id: number, pkg: RobotPackage, args?: string): ClaimedRun {
  return {
    execution_id: id,
    attempt: 1,
    timeout_minutes: 60,
    timeout_seconds: 3600,
    robot: {
      rota_robots_id: 10,
      name: 'Robot',
      executor: `${JSON.stringify(process.execPath)} main.js${args ? ` ${args}` : ''}`,
      remote_root: null,
    },
    package: {
      rota_robot_versions_id: 3,
      version: pkg.version,
      sha256: pkg.sha256,
      size_bytes: pkg.data.length,
      format: 'zip',
      download_path: pkg.downloadPath,
    },
    environment: { ROTA_EXECUTION_ID: String(id), ROTA_EXECUTION_TOKEN: `run-token-${id}` },
  };
}

/**
 * A fake server serving `pkg` and an agent work dir, fresh for each test of the file: read
 * `server` and `workDir` inside a test.
 */
export function useFakeServer(pkg: RobotPackage) {
  const fixture = {} as { server: FakeRotaServer; workDir: string };
  beforeEach(async () => {
    fixture.server = await new FakeRotaServer().start();
    fixture.server.packages.set(pkg.downloadPath, pkg.data);
    fixture.workDir = await tempDir();
  });
  afterEach(async () => {
    await fixture.server.close();
    await rm(fixture.workDir, { recursive: true, force: true });
  });
  return fixture;
}
