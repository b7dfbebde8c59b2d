import { describe, expect, it } from 'vitest';
import { parseOptions } from '../src/options.js';

const base = ['--server', 'https://rota.example.com', '--token', 'tok'];

describe('--labels', () => {
  it('splits on commas, trims and lowercases; ROTA_AGENT_LABELS when no flag', () => {
    const flag = parseOptions([...base, '--labels', ' Excel, sap,,chrome '], {});
    expect(flag).toMatchObject({ kind: 'ok', options: { labels: ['excel', 'sap', 'chrome'] } });
    const env = parseOptions(base, { ROTA_AGENT_LABELS: 'sap' });
    expect(env).toMatchObject({ kind: 'ok', options: { labels: ['sap'] } });
    const none = parseOptions(base, {});
    expect(none.kind === 'ok' && none.options.labels).toBeUndefined();
  });

  it('refuses a label the server would refuse, and more than 20', () => {
    expect(parseOptions([...base, '--labels', 'sap erp'], {})).toEqual({
      kind: 'invalid',
      problems: [
        '--labels (or ROTA_AGENT_LABELS) takes labels of lowercase letters, digits, ".", "_" and "-", 1 to 40 characters',
      ],
    });
    const many = Array.from({ length: 21 }, (_, i) => `l${i}`).join(',');
    expect(parseOptions([...base, `--labels=${many}`], {})).toEqual({
      kind: 'invalid',
      problems: ['--labels (or ROTA_AGENT_LABELS) takes at most 20 labels'],
    });
  });
});
