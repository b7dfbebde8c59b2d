import { describe, expect, it } from 'vitest';
import en from '../src/locales/en.json';
import pt from '../src/locales/pt.json';

function flatten(tree: object, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object') Object.assign(out, flatten(value as object, path));
    else out[path] = value;
  }
  return out;
}

describe('locale files', () => {
  const flatEn = flatten(en);
  const flatPt = flatten(pt);

  it('have the same keys in pt and en', () => {
    expect(Object.keys(flatPt).sort()).toEqual(Object.keys(flatEn).sort());
  });

  it('have no empty text', () => {
    for (const [key, value] of [...Object.entries(flatEn), ...Object.entries(flatPt)]) {
      expect(typeof value === 'string' && value.trim() !== '', key).toBe(true);
    }
  });

  it('hold the fixed texts', () => {
    expect(flatPt['guard.deniedTitle']).toBe('O acesso a pagina foi negado!');
    expect(flatPt['guard.deniedText']).toBe('Você não tem autorização!');
    expect(flatEn['guard.deniedTitle']).toBe('Access to the page has been denied!');
    expect(flatEn['guard.deniedText']).toBe('You do not have authorization!');
    expect(flatPt['shell.signOutQuestion']).toBe('Deseja sair do sistema ?');
    expect(flatPt['shell.signOutConfirm']).toBe('Sim');
    expect(flatEn['shell.sidebarTitle']).toBe('Control room');
    expect(flatEn['http.created']).toBe('Created!');
    expect(flatEn['http.removed']).toBe('Removed!');
    expect(flatEn['http.changed']).toBe('changed!');
    expect(flatEn['http.unauthorized']).toBe('Unauthorized!');
    expect(flatPt['http.errorTitle']).toBe('Erro');
  });
});
