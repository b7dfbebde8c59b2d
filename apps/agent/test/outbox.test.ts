import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentFinish } from '@rota/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../src/logger.js';
import { Outbox } from '../src/outbox.js';
import { tempDir } from './helpers/archives.js';

const result = (execution_id: number, attempt = 1): AgentFinish => ({
  execution_id,
  attempt,
  status: 'success',
  exit_code: 0,
  message: null,
  ended_at: '2026-01-02T03:04:05.000Z',
});

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Outbox', () => {
  it('keeps results across instances until removed', async () => {
    const first = new Outbox(path.join(dir, 'outbox'), silentLogger);
    await first.write(result(7, 2));
    await first.write(result(8));
    expect(await readdir(first.dir)).toEqual(['7-2.json', '8-1.json']);

    // A new process finds them.
    const second = new Outbox(path.join(dir, 'outbox'), silentLogger);
    expect(await second.readAll()).toEqual([result(7, 2), result(8)]);
    await second.remove(result(7, 2));
    expect(await second.readAll()).toEqual([result(8)]);
  });

  it('overwrites a result of the same attempt atomically', async () => {
    const outbox = new Outbox(dir, silentLogger);
    await outbox.write(result(1));
    await outbox.write({ ...result(1), status: 'cancelled', message: 'cancelled' });
    expect(await readdir(dir)).toEqual(['1-1.json']);
    expect(JSON.parse(await readFile(path.join(dir, '1-1.json'), 'utf8'))).toMatchObject({
      status: 'cancelled',
    });
  });

  it('sets unreadable files aside and drops unfinished temp files', async () => {
    const outbox = new Outbox(dir, silentLogger);
    await writeFile(path.join(dir, '3-1.json'), '{"execution_id": 3');
    await writeFile(path.join(dir, '4-1.json'), JSON.stringify(result(5)));
    await writeFile(path.join(dir, '6-1.json.123.abcd.tmp'), '{');
    await outbox.write(result(9));
    expect(await outbox.readAll()).toEqual([result(9)]);
    expect((await readdir(dir)).sort()).toEqual([
      '3-1.json.invalid',
      '4-1.json.invalid',
      '9-1.json',
    ]);
  });
});
