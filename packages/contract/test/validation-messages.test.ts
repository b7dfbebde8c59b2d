import { describe, expect, it } from 'vitest';
import {
  accessRequestCreateSchema,
  boundedIntSchema,
  msgWith,
  parameterCreateSchema,
  parseMessageRef,
  translateMessage,
  userCreateSchema,
} from '../src/index.js';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('range errors say the range', () => {
  it('carries min and max, translated in both languages', () => {
    const message = firstMessage(boundedIntSchema(1, 1440).safeParse(0))!;
    expect(message).toBe(msgWith('out_of_range_between', { min: 1, max: 1440 }));
    expect(translateMessage('en', message)).toBe('Between 1 and 1440');
    expect(translateMessage('pt', message)).toBe('Entre 1 e 1440');
    expect(translateMessage('en', firstMessage(boundedIntSchema(0, 10).safeParse(11))!)).toBe(
      'Between 0 and 10',
    );
  });

  it('reads a key with values apart, and leaves plain text alone', () => {
    expect(parseMessageRef('out_of_range_between?min=1&max=5')).toEqual({
      key: 'out_of_range_between',
      values: { min: '1', max: '5' },
    });
    expect(parseMessageRef('required_name')).toEqual({ key: 'required_name', values: {} });
    expect(parseMessageRef('Já traduzido?')).toBeNull();
    expect(translateMessage('pt', 'Já traduzido?')).toBe('Já traduzido?');
  });
});

describe('validation messages that say what is wrong', () => {
  it('an empty parameter value is required, "not both" only when both are given', () => {
    const empty = firstMessage(parameterCreateSchema.safeParse({ name: 'A', value: '' }))!;
    expect(translateMessage('en', empty)).toBe('Required value (or a password)');
    expect(translateMessage('pt', empty)).toBe('Valor obrigatório (ou uma senha)');
    const both = firstMessage(
      parameterCreateSchema.safeParse({ name: 'A', value: 'v', password: 'p' }),
    )!;
    expect(both).toBe('parameter_value_xor_password');
  });

  it('refuses parameter names the robot could not read as ROTA_PARAM_<NAME>', () => {
    for (const name of ['db.host', 'api-key', 'a b', '9lives']) {
      const message = firstMessage(parameterCreateSchema.safeParse({ name, value: 'v' }))!;
      expect(translateMessage('en', message)).toContain('ROTA_PARAM_<NAME>');
      expect(translateMessage('pt', message)).toContain('letras, dígitos e "_"');
    }
    for (const name of ['DB_HOST', 'apiKey2', 'a_b_c']) {
      expect(parameterCreateSchema.safeParse({ name, value: 'v' }).success).toBe(true);
    }
  });

  it('an empty company on Request access says so', () => {
    const result = accessRequestCreateSchema.safeParse({
      name: 'Ana',
      email: 'ana@example.com',
      client_name: ' ',
    });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['client_name'], message: 'required_company' }),
    ]);
    expect(translateMessage('en', 'required_company')).toBe('Required company');
    expect(translateMessage('pt', 'required_company')).toBe('Empresa obrigatória');
  });

  it('names the timeout field as the console labels it', () => {
    expect(translateMessage('pt', 'required_timeout')).toBe('Tempo limite obrigatório');
  });
});

describe('names', () => {
  const user = (name: string) => userCreateSchema.shape.name.safeParse(name);

  it('takes letters of any language, spaces, apostrophes and hyphens', () => {
    for (const name of [
      "D'Ávila",
      'D’Ávila',
      'João-Pedro',
      'Nguyễn',
      'Nguye\u0302\u0303n', // the same, decomposed: letters and their combining marks
      'Ana Maria',
      'Zoë',
      'Şükrü',
      'Ærøskøbing',
      'Владимир',
      '山田',
      "O'Neil-Smith",
    ]) {
      expect(user(name).success, name).toBe(true);
    }
  });

  it('keeps the letters-only message for anything else', () => {
    for (const name of [
      'Ana1',
      'Ana.',
      "'Ana",
      'Ana-',
      'Ana--Maria',
      "D''Ávila",
      'a_b',
      '-',
      'Ana@',
    ]) {
      const result = user(name);
      expect(result.success, name).toBe(false);
      expect(firstMessage(result), name).toBe('letters_only');
    }
  });
});
