import { describe, expect, it } from 'vitest';
import {
  RUN_MESSAGES,
  agentFinishSchema,
  agentLogLineSchema,
  renderRunMessage,
  runMessageText,
} from '../src/index.js';

describe('run messages', () => {
  it('says a time limit with the right plural in both languages', () => {
    expect(renderRunMessage('en', 'timed_out', { minutes: 1 })).toBe('timed out after 1 minute');
    expect(renderRunMessage('en', 'timed_out', { minutes: 2 })).toBe('timed out after 2 minutes');
    expect(renderRunMessage('pt', 'timed_out', { minutes: 1 })).toBe(
      'tempo esgotado após 1 minuto',
    );
    expect(renderRunMessage('pt', 'timed_out', { minutes: 5 })).toBe(
      'tempo esgotado após 5 minutos',
    );
    expect(renderRunMessage('en', 'timed_out', { seconds: 90 })).toBe('timed out after 90 s');
    expect(renderRunMessage('pt', 'timed_out', { seconds: 120 })).toBe(
      'tempo esgotado após 2 minutos',
    );
  });

  it('fills values and translates the server’s and the agent’s words', () => {
    expect(renderRunMessage('pt', 'agent_lost', null)).toBe('agente perdido');
    expect(renderRunMessage('en', 'agent_stopped', {})).toBe('agent stopped');
    expect(
      renderRunMessage('pt', 'downloading_package', { version: '1.2', size: 1, format: 'zip' }),
    ).toBe('baixando o pacote 1.2 (1 byte, zip)');
    expect(renderRunMessage('en', 'killing_tree', { reason: 'timeout', minutes: 1 })).toBe(
      'timed out after 1 minute: killing the process tree',
    );
    expect(renderRunMessage('pt', 'process_ended', { code: 3 })).toBe(
      'processo terminou com código 3',
    );
    expect(runMessageText('run_failed', { reason: 'boom' })).toBe('run failed: boom');
  });

  it('shows an older agent’s text as is, and an unknown code as its text', () => {
    expect(renderRunMessage('pt', null, null, 'timed out after 3 minutes')).toBe(
      'timed out after 3 minutes',
    );
    expect(renderRunMessage('pt', 'from_a_newer_agent', {}, 'new words')).toBe('new words');
  });

  it('has every code in both languages, never empty', () => {
    for (const [code, langs] of Object.entries(RUN_MESSAGES)) {
      for (const lang of ['en', 'pt'] as const) {
        expect(
          renderRunMessage(lang, code, { seconds: 60, code: 1 })?.length,
          code,
        ).toBeGreaterThan(0);
      }
      expect(Object.keys(langs).sort()).toEqual(['en', 'pt']);
    }
  });

  it('lets the agent protocol carry a code, and older agents send none', () => {
    const ref = { execution_id: 1, attempt: 1 };
    const old = agentFinishSchema.parse({
      ...ref,
      status: 'timeout',
      exit_code: null,
      message: 'x',
    });
    expect(old.code).toBeUndefined();
    const coded = agentFinishSchema.parse({
      ...ref,
      status: 'timeout',
      exit_code: null,
      message: 'timed out after 1 minute',
      code: 'timed_out',
      params: { minutes: 1 },
    });
    expect(coded).toMatchObject({ code: 'timed_out', params: { minutes: 1 } });
    const line = agentLogLineSchema.parse({
      seq: 1,
      stream: 'system',
      line: 'cancelled',
      at: new Date().toISOString(),
      code: 'cancelled',
      params: {},
    });
    expect(line.code).toBe('cancelled');
  });
});
