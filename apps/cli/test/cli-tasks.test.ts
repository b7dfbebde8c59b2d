import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { robotPackage } from '../../server/test/helpers/robot-package.js';
import { createRobot } from '../../server/test/helpers/robots.js';
import { createKey, rota, rotaOn, serve, type Served } from './helpers/server.js';

/** Tasks, version uploads, keys, profiles and usage errors, against the real server. */

let s: Served;
let robotId: number;
let dir: string;

beforeAll(async () => {
  s = await serve();
  robotId = await createRobot(s.admin, 'Queue Bot');
  dir = await mkdtemp(path.join(os.tmpdir(), 'rota-cli-'));
});
afterAll(async () => {
  await s?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('rota tasks', () => {
  it('adds a task with data and a label, and lists it for its robot', async () => {
    const added = await rotaOn(s, [
      'tasks',
      'add',
      'Queue Bot',
      '--data',
      '{"cpf":"123"}',
      '--label',
      'batch-7',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const id = Number(added.stdout.trim());
    const listed = await rotaOn(s, ['tasks', 'list', '--robot', String(robotId)]);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')[0]).toMatch(
      /^ID\s+ROBOT\s+STATUS\s+LABEL\s+PRIORITY\s+EXPIRES\s+DATA$/,
    );
    expect(listed.stdout).toMatch(
      new RegExp(
        `\\n${id}\\s+Queue Bot\\s+pending\\s+batch-7\\s+50\\s+\\S+\\s+\\{"cpf":"123"\\}\\n`,
      ),
    );
  });

  it('refuses data that is not a JSON object (2) and shows the server’s field errors (2)', async () => {
    const notJson = await rotaOn(s, ['tasks', 'add', 'Queue Bot', '--data', '{cpf']);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('--data is not valid JSON');
    expect((await rotaOn(s, ['tasks', 'add', 'Queue Bot', '--data', '[1]'])).code).toBe(2);
    expect((await rotaOn(s, ['tasks', 'add', 'Queue Bot'])).code).toBe(2);
    const past = await rotaOn(s, [
      'tasks',
      'add',
      'Queue Bot',
      '--data',
      '{}',
      '--expires',
      'not a date',
    ]);
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/\n {2}expiration_date: /);
    const inPortuguese = await rotaOn(
      s,
      ['tasks', 'add', 'Queue Bot', '--data', '{}', '--expires', 'not a date'],
      { LANG: 'pt_BR.UTF-8' },
    );
    expect(inPortuguese.code).toBe(2);
    const [, english] = /expiration_date: (.*)/.exec(past.stderr)!;
    const [, portuguese] = /expiration_date: (.*)/.exec(inPortuguese.stderr)!;
    expect(portuguese).not.toBe(english);
    expect((await rotaOn(s, ['tasks', 'add', 'Nobody', '--data', '{}'])).code).toBe(3);
  });
});

describe('paged lists', () => {
  it('fetches page after page up to --limit, past the API’s 100 a page', async () => {
    const bulk = await createRobot(s.admin, 'Bulk Bot');
    const expiration_date = new Date(Date.now() + 86_400_000).toISOString();
    for (let i = 0; i < 103; i += 1) {
      const res = await s.admin.post('/api/rota/task/api/v1/create', {
        rota_robots_id: bulk,
        data: { i },
        expiration_date,
      });
      expect(res.status).toBe(201);
    }
    const all = await rotaOn(s, [
      'tasks',
      'list',
      '--robot',
      'Bulk Bot',
      '--limit',
      '500',
      '--json',
    ]);
    expect(all.code, all.stderr).toBe(0);
    const ids = (JSON.parse(all.stdout) as { rota_tasks_id: number }[]).map((t) => t.rota_tasks_id);
    expect(new Set(ids).size).toBe(103);
    const three = await rotaOn(s, [
      'tasks',
      'list',
      '--robot',
      'Bulk Bot',
      '--limit',
      '3',
      '--json',
    ]);
    expect(JSON.parse(three.stdout)).toHaveLength(3);
    const byDefault = await rotaOn(s, ['tasks', 'list', '--robot', 'Bulk Bot']);
    expect(byDefault.stdout.trimEnd().split('\n')).toHaveLength(21);
  });
});

describe('rota versions upload', () => {
  it('uploads a package as a new version of the robot', async () => {
    const file = path.join(dir, 'queue-bot.tar.gz');
    await writeFile(file, await robotPackage());
    const uploaded = await rotaOn(s, [
      'versions',
      'upload',
      'Queue Bot',
      file,
      '--version',
      '1.2.0',
      '--notes',
      'from CI',
      '--json',
    ]);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    expect(JSON.parse(uploaded.stdout)).toMatchObject({
      rota_robots_id: robotId,
      version: '1.2.0',
      notes: 'from CI',
      format: 'tar.gz',
    });
    const sha256 = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
    expect(JSON.parse(uploaded.stdout).sha256).toBe(sha256);
    const stored = await s.admin.post('/api/rota/robot/version/api/v1/index', {
      rota_robots_id: robotId,
    });
    expect(stored.body.data).toEqual([expect.objectContaining({ version: '1.2.0', sha256 })]);
    const plain = await rotaOn(s, [
      'versions',
      'upload',
      String(robotId),
      file,
      '--version',
      '1.3.0',
    ]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(new RegExp(`^\\d+ 1\\.3\\.0 ${sha256}\\n$`));
  });

  it('refuses a missing file or --version (2) and a file that is not a package (2)', async () => {
    const missing = await rotaOn(s, [
      'versions',
      'upload',
      'Queue Bot',
      path.join(dir, 'none.zip'),
      '--version',
      '2',
    ]);
    expect(missing.code).toBe(2);
    expect((await rotaOn(s, ['versions', 'upload', 'Queue Bot'])).code).toBe(2);
    const junk = path.join(dir, 'junk.zip');
    await writeFile(junk, 'not a zip');
    expect((await rotaOn(s, ['versions', 'upload', 'Queue Bot', junk])).code).toBe(2);
    const refused = await rotaOn(s, ['versions', 'upload', 'Queue Bot', junk, '--version', '2']);
    expect(refused.code).toBe(2);
  });
});

describe('keys and profiles', () => {
  it('exits 4 for a key the server does not know, and for one without the permission', async () => {
    const bad = await rota(['robots', 'list'], { ROTA_URL: s.url, ROTA_API_KEY: 'rota_pat_nope' });
    expect(bad.code).toBe(4);
    const listOnly = await createKey(s.admin, { name: 'read only', permissions: ['ROBOS.LIST'] });
    const env = { ROTA_URL: s.url, ROTA_API_KEY: listOnly };
    expect((await rota(['robots', 'list'], env)).code).toBe(0);
    const refused = await rota(['tasks', 'add', 'Queue Bot', '--data', '{}'], env);
    expect(refused.code).toBe(4);
  });

  it('reads a named profile, warns when the file is readable by others, and names what is missing', async () => {
    const config = path.join(dir, 'config.json');
    await writeFile(
      config,
      JSON.stringify({ default: 'prod', profiles: { prod: { url: s.url, api_key: s.key } } }),
    );
    await chmod(config, 0o600);
    const byDefault = await rota(['robots', 'list', '--json'], { ROTA_CONFIG: config });
    expect(byDefault.code, byDefault.stderr).toBe(0);
    expect(byDefault.stderr).toBe('');
    await chmod(config, 0o644);
    const named = await rota(['robots', 'list', '--profile', 'prod'], { ROTA_CONFIG: config });
    expect(named.code).toBe(0);
    expect(named.stderr).toContain('is readable by others; run chmod 600');
    const unknown = await rota(['robots', 'list', '--profile', 'staging'], { ROTA_CONFIG: config });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No profile "staging"');
    const none = await rota(['robots', 'list'], { XDG_CONFIG_HOME: path.join(dir, 'empty') });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('set ROTA_URL and ROTA_API_KEY');
  });

  it('exits 1 when the server cannot be reached', async () => {
    const down = await rota(['robots', 'list'], {
      ROTA_URL: 'http://127.0.0.1:1',
      ROTA_API_KEY: 'k',
    });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('Cannot reach the server');
  });
});

describe('the built bin', () => {
  it('builds with tsc and runs as `rota` against the server', async () => {
    const cli = fileURLToPath(new URL('..', import.meta.url));
    const tsc = path.join(cli, '../../node_modules/typescript/bin/tsc');
    // Its own output folder (not dist, which a developer may be using), inside the workspace so
    // that openapi-fetch resolves as it does for the installed bin.
    const cache = path.join(cli, 'node_modules/.cache');
    await mkdir(cache, { recursive: true });
    const outDir = await mkdtemp(path.join(cache, 'rota-cli-build-'));
    onTestFinished(() => rm(outDir, { recursive: true, force: true }));
    const build = spawnSync(
      process.execPath,
      [tsc, '-p', 'tsconfig.build.json', '--noCheck', '--outDir', outDir],
      { cwd: cli, encoding: 'utf8' },
    );
    expect(build.status, build.stdout + build.stderr).toBe(0);
    const main = path.join(outDir, 'main.js');
    expect((await readFile(main, 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true);
    const listed = await rota(
      ['robots', 'list', '--json'],
      { ROTA_URL: s.url, ROTA_API_KEY: s.key },
      main,
    );
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toContainEqual(
      expect.objectContaining({ name: 'Queue Bot' }),
    );
  });
});

describe('usage', () => {
  it('prints help with the exit codes (0) and refuses unknown commands and options (2)', async () => {
    const help = await rota(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('rota run ROBOT [--wait');
    expect(help.stdout).toMatch(/Exit codes:\n {2}0 .*\n {2}1 .*\n {2}2 .*\n {2}3 .*\n {2}4 /);
    expect((await rota([])).code).toBe(2);
    const unknown = await rotaOn(s, ['robots', 'delete']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command: robots delete');
    expect((await rotaOn(s, ['robots', 'list', '--colour'])).code).toBe(2);
    expect((await rotaOn(s, ['runs', 'show', '1', '2'])).code).toBe(2);
    expect((await rotaOn(s, ['run'])).code).toBe(2);
  });
});
