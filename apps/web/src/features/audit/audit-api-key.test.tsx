// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Language } from '@rota/contract';
import { clientsProbe, makeAuditLog } from '../../../test/admin-fixtures';
import { listOf, openPage } from '../../../test/operations-fixtures';

/** A change made with a personal API key names the key beside the user. */
async function openAudit(lang: Language) {
  const probe = clientsProbe(false);
  return openPage(
    '/audit',
    /^(Log de auditoria|Audit log)$/,
    ['USUARIOS.LIST'],
    (call) => {
      const probed = probe(call);
      if (probed) return probed;
      if (call.url.endsWith('/rota/audit/api/v1/index')) {
        return {
          status: 200,
          body: listOf([
            makeAuditLog({ entity: 'trigger', action: 'revoke', api_key_name: 'Integração ERP' }),
            makeAuditLog({ audit_logs_id: 99, entity: 'api_key', action: 'create' }),
            makeAuditLog({ audit_logs_id: 98, entity: 'alert', action: 'delete' }),
          ]),
        };
      }
      return undefined;
    },
    lang,
  );
}

describe('audit rows made with a personal API key', { timeout: 30_000 }, () => {
  it.each([
    [
      'pt',
      'Log de auditoria',
      'via chave de API Integração ERP',
      ['Gatilho de execução', 'Chave de API', 'Alerta'],
    ],
    ['en', 'Audit log', 'via API key Integração ERP', ['Run trigger', 'API key', 'Alert']],
  ] as const)(
    '%s: name the API key a change was made with, and the new entities',
    async (lang, label, via, entities) => {
      await openAudit(lang);
      const table = await screen.findByRole('table', { name: label });
      const rows = within(table).getAllByRole('row');
      expect(within(rows[1]!).getByText(via)).toBeInTheDocument();
      expect(within(rows[2]!).queryByText(/via/)).toBeNull();
      entities.forEach((entity, index) =>
        expect(within(rows[index + 1]!).getByText(entity)).toBeInTheDocument(),
      );
    },
  );
});
