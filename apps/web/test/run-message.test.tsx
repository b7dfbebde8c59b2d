import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ExecutionLogLine, Language } from '@rota/contract';
import { createLiveServer, makeExecutionDetail, makeLogLine } from './activity-fixtures';
import { openPage } from './operations-fixtures';

/** A run timed out and was retried after its agent was lost; its system lines carry codes. */
const timedOut = makeExecutionDetail({
  status: 'timeout',
  attempts: 2,
  exit_code: null,
  message: 'timed out after 1 minute',
  message_code: 'timed_out',
  message_params: { minutes: 1 },
  attempt_list: [
    {
      attempt: 1,
      rota_nodes_id: 5,
      rota_executor_name: 'agente-01',
      status: 'application_error',
      exit_code: null,
      message: 'agent lost',
      message_code: 'agent_lost',
      message_params: {},
      start_date: '2026-11-20T10:00:00.000Z',
      end_date: '2026-11-20T10:00:30.000Z',
      late_result: null,
      refused_calls: 0,
    },
    {
      attempt: 2,
      rota_nodes_id: 6,
      rota_executor_name: 'agente-02',
      status: 'timeout',
      exit_code: null,
      message: 'timed out after 1 minute',
      message_code: 'timed_out',
      message_params: { minutes: 1 },
      start_date: '2026-11-20T10:01:00.000Z',
      end_date: '2026-11-20T10:02:00.000Z',
      late_result: null,
      refused_calls: 0,
    },
  ],
});

const lines: ExecutionLogLine[] = [
  makeLogLine(1, {
    stream: 'system',
    line: 'starting `node main.js` in /srv/rota',
    code: 'starting',
    params: { executor: 'node main.js', dir: '/srv/rota' },
  }),
  // The robot's own words are never translated, whatever they say.
  makeLogLine(2, { line: 'agent lost' }),
  // An older agent's system line: no code, shown as it is.
  makeLogLine(3, { stream: 'system', line: 'process exited with code 0' }),
];

async function open(lang: Language, path = '/activity/42') {
  const live = createLiveServer();
  return openPage(
    path,
    /#42/,
    ['HISTORIC.LIST', 'ROBOS.LIST'],
    ({ url }) => {
      if (url.endsWith('/activity/api/v1/show')) return { status: 200, body: { data: timedOut } };
      if (url.endsWith('/activity/api/v1/logs')) {
        return { status: 200, body: { data: lines, meta: { last_seq: 3 } } };
      }
      if (url.endsWith('/events/api/v1/stream')) return live.reply();
      return undefined;
    },
    lang,
  );
}

describe('run messages in the user’s language', { timeout: 20_000 }, () => {
  const said = {
    pt: {
      timedOut: 'tempo esgotado após 1 minuto',
      lost: 'agente perdido',
      attempts: 'Tentativas',
      starting: 'iniciando `node main.js` em /srv/rota',
      log: 'Log da execução',
    },
    en: {
      timedOut: 'timed out after 1 minute',
      lost: 'agent lost',
      attempts: 'Attempts',
      starting: 'starting `node main.js` in /srv/rota',
      log: 'Execution log',
    },
  } as const;

  for (const lang of ['pt', 'en'] as const) {
    it(`says the execution's and its attempts' messages in ${lang}`, async () => {
      const { user } = await open(lang);
      expect(screen.getByText(said[lang].timedOut)).toBeInTheDocument();
      await user.click(screen.getByRole('tab', { name: said[lang].attempts }));
      const table = await screen.findByRole('table', { name: said[lang].attempts });
      const rows = within(table).getAllByRole('row');
      expect(within(rows[1]!).getByText(said[lang].lost)).toBeInTheDocument();
      expect(within(rows[2]!).getByText(said[lang].timedOut)).toBeInTheDocument();
    });

    it(`says the agent's system lines in ${lang}, robots' output and older agents' as they are`, async () => {
      await open(lang, '/activity/42?tab=logs');
      const log = await screen.findByRole('log', { name: said[lang].log });
      expect(await within(log).findByText(said[lang].starting)).toBeInTheDocument();
      expect(within(log).getByText('agent lost')).toBeInTheDocument();
      expect(within(log).getByText('process exited with code 0')).toBeInTheDocument();
    });
  }
});
