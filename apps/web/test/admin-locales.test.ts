import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, PERMISSION_ACTIONS, PERMISSION_AREAS } from '@rota/contract';
import { AUDIT_ENTITIES } from '../src/features/audit/components/audit-labels';
import auditEn from '../src/features/audit/locales/en.json';
import auditPt from '../src/features/audit/locales/pt.json';
import clientsEn from '../src/features/clients/locales/en.json';
import clientsPt from '../src/features/clients/locales/pt.json';
import profilesEn from '../src/features/profiles/locales/en.json';
import profilesPt from '../src/features/profiles/locales/pt.json';
import usersEn from '../src/features/users/locales/en.json';
import usersPt from '../src/features/users/locales/pt.json';

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
  ['users', usersPt, usersEn],
  ['profiles', profilesPt, profilesEn],
  ['clients', clientsPt, clientsEn],
  ['audit', auditPt, auditEn],
])('the %s strings', (_name, ptTree, enTree) => {
  const flatPt = flatten(ptTree);
  const flatEn = flatten(enTree);

  it('have the same keys in pt and en', () => {
    expect(Object.keys(flatPt).sort()).toEqual(Object.keys(flatEn).sort());
  });

  it('have no empty text', () => {
    for (const [key, value] of [...Object.entries(flatPt), ...Object.entries(flatEn)]) {
      expect(typeof value === 'string' && value.trim() !== '', key).toBe(true);
    }
  });
});

describe('catalogue names', () => {
  it('name every permission area and action, and every audit action and entity', () => {
    for (const tree of [profilesPt, profilesEn]) {
      expect(Object.keys(tree.areas).sort()).toEqual([...PERMISSION_AREAS].sort());
      expect(Object.keys(tree.permissionActions).sort()).toEqual([...PERMISSION_ACTIONS].sort());
    }
    for (const tree of [auditPt, auditEn]) {
      expect(Object.keys(tree.actions).sort()).toEqual([...AUDIT_ACTIONS].sort());
      expect(Object.keys(tree.entities).sort()).toEqual([...AUDIT_ENTITIES].sort());
    }
  });
});
