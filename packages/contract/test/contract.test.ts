import { describe, expect, it } from 'vitest';
import {
  MESSAGES,
  PERMISSIONS,
  ROUTE_PERMISSIONS,
  hasPermissions,
  resetPasswordSchema,
  sessionCreateSchema,
  translateMessage,
} from '../src/index.js';

describe('permission catalogue', () => {
  it('is every area × action', () => {
    expect(PERMISSIONS).toHaveLength(28);
    expect(PERMISSIONS).toContain('HISTORIC.LIST');
    expect(PERMISSIONS).toContain('USUARIOS.DELETE');
    expect(new Set(PERMISSIONS).size).toBe(PERMISSIONS.length);
  });

  it('requires every listed permission; an empty list or a lone empty string restricts nothing', () => {
    expect(hasPermissions(['ROBOS.LIST'], ['ROBOS.LIST'])).toBe(true);
    expect(hasPermissions(['ROBOS.LIST'], ['ROBOS.LIST', 'ROBOS.CREATE'])).toBe(false);
    expect(hasPermissions([], [])).toBe(true);
    expect(hasPermissions(undefined, [''])).toBe(true);
    expect(hasPermissions(undefined, ['ROBOS.LIST'])).toBe(false);
  });

  it('guards teams and configuration items with USUARIOS.LIST and the activity with HISTORIC.LIST', () => {
    expect(ROUTE_PERMISSIONS['/team']).toEqual(['USUARIOS.LIST']);
    expect(ROUTE_PERMISSIONS['/connector']).toEqual(['USUARIOS.LIST']);
    expect(ROUTE_PERMISSIONS['/activity']).toEqual(['HISTORIC.LIST']);
    expect(ROUTE_PERMISSIONS['/dashboard']).toEqual([]);
  });
});

describe('messages', () => {
  it('has every key in both languages, none empty', () => {
    expect(Object.keys(MESSAGES.pt).sort()).toEqual(Object.keys(MESSAGES.en).sort());
    for (const lang of ['pt', 'en'] as const) {
      for (const text of Object.values(MESSAGES[lang])) expect(text.trim()).not.toBe('');
    }
  });

  it('keeps the English texts verbatim and fills placeholders', () => {
    expect(MESSAGES.en.required_access).toBe('Required acess');
    expect(MESSAGES.en.max_date).toBe('Max data');
    expect(
      translateMessage('en', 'mail_recover_body', { name: 'Ana', link: 'L', code: 'C' }),
    ).toContain('Hello Ana');
    expect(translateMessage('pt', 'not-a-key')).toBe('not-a-key');
  });

  it('schemas carry message keys the catalogue knows', () => {
    const signIn = sessionCreateSchema.safeParse({ access: '', password: '' });
    expect(signIn.success).toBe(false);
    expect(signIn.error?.issues.map((i) => i.message)).toEqual([
      'required_access',
      'required_password',
    ]);
    const reset = resetPasswordSchema.safeParse({
      code: 'c',
      password: 'long-enough',
      confirm_password: 'other',
    });
    expect(reset.error?.issues).toEqual([
      expect.objectContaining({ path: ['confirm_password'], message: 'passwords_must_match' }),
    ]);
  });
});
