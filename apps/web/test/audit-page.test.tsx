import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditLog, Language } from '@rota/contract';
import { auditDiffRows } from '../src/features/audit/components/audit-diff-rows';
import { AuditDiff } from '../src/features/audit/components/audit-diff';
import { setToken } from '../src/lib/session';
import { makeUser } from './fixtures';
import { mockFetch } from './http-mock';
import { renderElement, renderWithRouter, resetEnvironment } from './render';
import { callsTo, listOf, openPage } from './operations-fixtures';
import { clientsProbe, makeAuditLog } from './admin-fixtures';

describe('audit diff rows', () => {
  it('compares an update field by field, keys of after first', () => {
    expect(
      auditDiffRows(
        { name: 'A', tags: ['x'], gone: 1, same: { a: 1, b: 2 } },
        { name: 'B', tags: ['x'], same: { b: 2, a: 1 }, added: null },
      ),
    ).toEqual([
      { key: 'name', before: 'A', after: 'B', status: 'changed' },
      { key: 'tags', before: ['x'], after: ['x'], status: 'same' },
      { key: 'same', before: { a: 1, b: 2 }, after: { b: 2, a: 1 }, status: 'same' },
      { key: 'added', before: undefined, after: null, status: 'added' },
      { key: 'gone', before: 1, after: undefined, status: 'removed' },
    ]);
  });

  it('has only after on a create, only before on a delete, nothing without data', () => {
    expect(auditDiffRows(null, { name: 'A' })).toEqual([
      { key: 'name', before: undefined, after: 'A', status: 'added' },
    ]);
    expect(auditDiffRows({ name: 'A' }, null)).toEqual([
      { key: 'name', before: 'A', after: undefined, status: 'removed' },
    ]);
    expect(auditDiffRows(null, null)).toEqual([]);
    expect(auditDiffRows([1], [1, 2])).toEqual([
      { key: '', before: [1], after: [1, 2], status: 'changed' },
    ]);
  });
});

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('audit diff', () => {
  it('highlights and names the changed fields of an update', async () => {
    renderElement(
      <AuditDiff
        before={{ name: 'Faturas', active: true, executor: 'python main.py' }}
        after={{ name: 'Faturas 2', active: false, executor: 'python main.py' }}
      />,
    );
    const table = await screen.findByRole('table', { name: 'Antes e depois' });
    const heads = within(table)
      .getAllByRole('columnheader')
      .map((head) => head.textContent);
    expect(heads).toEqual(['Campo', 'Antes', 'Depois']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.getAttribute('data-changed'))).toEqual(['true', 'true', null]);
    expect(within(rows[0]!).getByText('alterado')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Faturas')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Faturas 2')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Sim')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Não')).toBeInTheDocument();
    expect(within(rows[2]!).queryByText('alterado')).not.toBeInTheDocument();
    expect(screen.getByText('2 campos alterados')).toBeInTheDocument();
  });

  it('can show only the changed fields', async () => {
    const { user } = renderElement(<AuditDiff before={{ a: 1, b: 2 }} after={{ a: 1, b: 3 }} />);
    await user.click(await screen.findByRole('switch', { name: 'Somente campos alterados' }));
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1);
    expect(within(rows[0]!).getByText('b')).toBeInTheDocument();
  });

  it('shows a create as its values, with no highlight, and objects as JSON', async () => {
    renderElement(<AuditDiff before={null} after={{ name: 'vm-01', vms: [{ id: 1 }] }} />);
    const table = await screen.findByRole('table', { name: 'Antes e depois' });
    const heads = within(table)
      .getAllByRole('columnheader')
      .map((head) => head.textContent);
    expect(heads).toEqual(['Campo', 'Depois']);
    expect(table.querySelector('[data-changed]')).toBeNull();
    expect(within(table).getByText(/"id": 1/)).toBeInTheDocument();
  });

  it('says when nothing was recorded, in English', async () => {
    await resetEnvironment('en');
    renderElement(<AuditDiff before={null} after={null} />);
    expect(await screen.findByText('No data was recorded with this action.')).toBeInTheDocument();
  });
});

async function openAudit(
  permissions: string[],
  options: { lang?: Language; path?: string; records?: AuditLog[] } = {},
) {
  const records = options.records ?? [
    makeAuditLog(),
    makeAuditLog({
      audit_logs_id: 99,
      action: 'create',
      entity: 'vm',
      entity_id: '3',
      user_name: null,
      before: null,
      after: { name: 'vm-03' },
    }),
  ];
  const probe = clientsProbe(false);
  return openPage(
    options.path ?? '/audit',
    /^(Log de auditoria|Audit log)$/,
    permissions,
    (call) => {
      const probed = probe(call);
      if (probed) return probed;
      if (call.url.endsWith('/rota/audit/api/v1/index')) {
        return { status: 200, body: listOf(records) };
      }
      return undefined;
    },
    options.lang,
  );
}

describe('/audit', { timeout: 30_000 }, () => {
  it('lists records newest first: when, who, action, entity and id', async () => {
    const { calls } = await openAudit(['USUARIOS.LIST']);
    const table = await screen.findByRole('table', { name: 'Log de auditoria' });
    const heads = within(table)
      .getAllByRole('columnheader')
      .map((head) => head.textContent);
    expect(heads).toEqual(['Quando', 'Quem', 'Ação', 'Entidade', 'Ações']);
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('Ana Souza')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Alteração')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Robô')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('#12')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/^20\/11\/2026 \d{2}:\d{2}$/)).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Sistema')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Criação')).toBeInTheDocument();
    expect(callsTo(calls, '/audit/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'created_at',
      order: 'desc',
    });
  });

  it('sends the filters from the URL: action, entity and the date range', async () => {
    const { calls } = await openAudit(['USUARIOS.LIST'], {
      path: '/audit?action=delete&entity=user&startDate=2026-11-01&endDate=2026-11-10',
    });
    await screen.findByRole('table', { name: 'Log de auditoria' });
    expect(callsTo(calls, '/audit/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'created_at',
      order: 'desc',
      action: 'delete',
      entity: 'user',
      startDate: '2026-11-01',
      endDate: '2026-11-10',
    });
    expect(screen.getByRole('combobox', { name: 'Ação' })).toHaveValue('Exclusão');
    expect(screen.getByRole('combobox', { name: 'Entidade' })).toHaveValue('Usuário');
  });

  it('filters by action', async () => {
    const { calls, user, router } = await openAudit(['USUARIOS.LIST']);
    await screen.findByRole('table', { name: 'Log de auditoria' });
    await user.click(screen.getByRole('combobox', { name: 'Ação' }));
    await user.click(await screen.findByRole('option', { name: 'Entrada' }));
    await waitFor(() =>
      expect(callsTo(calls, '/audit/api/v1/index').at(-1)?.body).toMatchObject({
        action: 'sign_in',
      }),
    );
    expect(router.state.location.search).toBe('?action=sign_in');
  });

  it('opens a record read only, with its before and after', async () => {
    const { user } = await openAudit(['USUARIOS.LIST'], { lang: 'en' });
    const table = await screen.findByRole('table', { name: 'Audit log' });
    await user.click(within(table).getByText('Ana Souza'));
    const drawer = await screen.findByRole('dialog', { name: 'Audit record #100' });
    expect(within(drawer).getByText('req-1')).toBeInTheDocument();
    const diff = within(drawer).getByRole('table', { name: 'Before and after' });
    const changed = diff.querySelectorAll('[data-changed="true"]');
    expect(changed).toHaveLength(1);
    expect(within(changed[0] as HTMLElement).getByText('name')).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: /Save|Delete/ })).not.toBeInTheDocument();
  });

  it('is denied without USUARIOS.LIST, and asks for no record', async () => {
    setToken('token');
    const { calls } = mockFetch(() => ({
      status: 200,
      body: makeUser({ permissions: ['ROBOS.LIST'] }),
    }));
    renderWithRouter({ path: '/audit' });
    expect(await screen.findByText('O acesso a pagina foi negado!')).toBeInTheDocument();
    expect(callsTo(calls, '/audit/api/v1/index')).toHaveLength(0);
  });
});
