import { describe, expect, it } from 'vitest';
import { parseOptions } from '../src/options.js';
import { runRobotCommand } from '../src/run-command.js';

const base = ['--server', 'https://rota.example.com', '--token', 'tok'];

describe('--attended --user', () => {
  it('names the user the agent serves; ROTA_AGENT_USER stands for --user', () => {
    expect(parseOptions([...base, '--attended', '--user', 'ana'], {})).toMatchObject({
      kind: 'ok',
      options: { attendedUser: 'ana' },
    });
    expect(parseOptions([...base, '--attended'], { ROTA_AGENT_USER: 'bruno' })).toMatchObject({
      kind: 'ok',
      options: { attendedUser: 'bruno' },
    });
    const plain = parseOptions(base, { ROTA_AGENT_USER: 'bruno' });
    expect(plain.kind === 'ok' && plain.options.attendedUser).toBeUndefined();
  });

  it('refuses one without the other', () => {
    expect(parseOptions([...base, '--attended'], {})).toEqual({
      kind: 'invalid',
      problems: ['--attended needs --user <access> (or ROTA_AGENT_USER): the user it serves'],
    });
    expect(parseOptions([...base, '--user', 'ana'], {})).toEqual({
      kind: 'invalid',
      problems: ['--user goes with --attended'],
    });
  });
});

describe('rota-agent run: its arguments', () => {
  async function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
    let out = '';
    let err = '';
    const code = await runRobotCommand(argv, {
      env,
      out: (text) => (out += text),
      err: (text) => (err += text),
      fetch: () => Promise.reject(new Error('no call may be made with bad arguments')),
    });
    return { code, out, err };
  }

  it('needs the robot, a JSON object for --task-data, the server and the token', async () => {
    const none = await run(['--server', 'https://rota.example.com', '--token', 'tok']);
    expect(none.code).toBe(2);
    expect(none.err).toContain('name the robot to run');
    const array = await run(['Invoices', '--task-data', '[1,2]', ...base]);
    expect(array.err).toContain('--task-data must be a JSON object');
    const broken = await run(['Invoices', '--task-data={', ...base]);
    expect(broken.err).toContain('--task-data is not JSON');
    const noServer = await run(['Invoices']);
    expect(noServer.code).toBe(2);
    expect(noServer.err).toContain('--server (or ROTA_SERVER) is required');
  });

  it('prints its usage with --help', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('rota-agent run <robot> [--task-data <json>]');
  });
});
