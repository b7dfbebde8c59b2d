import { describe, expect, it } from 'vitest';
import agentsEn from '../src/features/agents/locales/en.json';
import agentsPt from '../src/features/agents/locales/pt.json';
import parametersEn from '../src/features/parameters/locales/en.json';
import parametersPt from '../src/features/parameters/locales/pt.json';
import schedulingsEn from '../src/features/schedulings/locales/en.json';
import schedulingsPt from '../src/features/schedulings/locales/pt.json';
import { splitMinutes } from '../src/features/schedulings/components/format-interval';
import vmsEn from '../src/features/vms/locales/en.json';
import vmsPt from '../src/features/vms/locales/pt.json';

function flatten(tree: object, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object') Object.assign(out, flatten(value as object, path));
    else out[path] = value;
  }
  return out;
}

describe.each([
  ['vms', vmsPt, vmsEn],
  ['agents', agentsPt, agentsEn],
  ['schedulings', schedulingsPt, schedulingsEn],
  ['parameters', parametersPt, parametersEn],
])('the %s locale files', (_name, pt, en) => {
  const flatPt = flatten(pt);
  const flatEn = flatten(en);

  it('have the same keys in pt and en', () => {
    expect(Object.keys(flatPt).sort()).toEqual(Object.keys(flatEn).sort());
  });

  it('have no empty text', () => {
    for (const [key, value] of [...Object.entries(flatPt), ...Object.entries(flatEn)]) {
      expect(typeof value === 'string' && value.trim() !== '', key).toBe(true);
    }
  });
});

describe('scheduling texts', () => {
  it('hold the filter names', () => {
    expect(schedulingsPt.deleted).toEqual({
      all: 'Todos os agendamentos',
      not_deleted: 'Agendamentos não excluídos',
      deleted: 'Agendamentos excluídos',
    });
    expect(schedulingsEn.deleted).toEqual({
      all: 'All schedulings',
      not_deleted: 'Not deleted schedulings',
      deleted: 'Deleted schedulings',
    });
  });

  it.each([
    [1, 'minutes', 1],
    [15, 'minutes', 15],
    [90, 'minutes', 90],
    [60, 'hours', 1],
    [180, 'hours', 3],
    [1440, 'days', 1],
    [10080, 'days', 7],
  ])('splits %i minutes into %s', (minutes, unit, count) => {
    expect(splitMinutes(minutes)).toEqual({ unit, count });
  });
});
