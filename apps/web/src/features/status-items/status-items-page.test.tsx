// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_STATUS_ITEMS,
  type Language,
  type StatusItem,
  type StatusPaletteEntry,
} from '@rota/contract';
import { mockFetch, type MockCall, type MockReply } from '../../../test/http-mock';
import { callsTo, listOf, openPage } from '../../../test/operations-fixtures';
import { renderElement, resetEnvironment } from '../../../test/render';
import { setToken } from '../../lib/session';
import { ExecutionStatusBadge } from '../activity';
import { CategoryCards } from '../dashboard';
import { statusItemKeys } from './api/keys';
import en from './locales/en.json';
import pt from './locales/pt.json';

const STAMP = '2024-05-01T12:00:00.000Z';
const ITEMS: StatusItem[] = DEFAULT_STATUS_ITEMS.map((item, index) => ({
  ...item,
  rota_status_items_id: index + 1,
  created_at: STAMP,
  updated_at: STAMP,
}));
// One item a client changed: its own label and colour.
ITEMS[5] = { ...ITEMS[5]!, label: 'Demorou demais', color: '#123456' };

async function openItems(
  permissions: string[],
  options: {
    path?: string;
    lang?: Language;
    reply?: (call: MockCall) => MockReply | undefined;
  } = {},
) {
  return openPage(
    options.path ?? '/connector',
    /Item de configuração|Configuration item/,
    permissions,
    (call) => {
      const special = options.reply?.(call);
      if (special) return special;
      if (call.url.endsWith('/rota/status/item/api/v1/index')) {
        return { status: 200, body: listOf(ITEMS) };
      }
      if (call.url.endsWith('/rota/status/item/api/v1/update')) return { status: 204 };
      if (call.url.endsWith('/rota/status/item/api/v1/palette')) {
        return { status: 200, body: { data: DEFAULT_STATUS_ITEMS } };
      }
      return undefined;
    },
    options.lang,
  );
}

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('/connector', { timeout: 20_000 }, () => {
  it('lists every status with its preview, category, label and colour', async () => {
    const { calls } = await openItems(['USUARIOS.LIST']);
    const table = await screen.findByRole('table', { name: 'Itens de configuração' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(8);
    const queued = within(rows[1]!);
    // A blank label reads as the status's name: shown as such, marked as the default.
    expect(queued.getAllByText('Na fila')).toHaveLength(3);
    expect(queued.getByText('(padrão)')).toBeInTheDocument();
    expect(queued.getByText('Processo')).toBeInTheDocument();
    expect(queued.getByText('#228be6')).toBeInTheDocument();
    const timeout = within(rows[6]!);
    expect(timeout.getByText('Tempo esgotado')).toBeInTheDocument();
    expect(timeout.getAllByText('Demorou demais')).toHaveLength(2);
    expect(timeout.getByText('Falha')).toBeInTheDocument();
    expect(timeout.getByText('#123456')).toBeInTheDocument();
    expect(callsTo(calls, '/rota/status/item/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'status',
      order: 'asc',
    });
    // Items are the statuses: nothing to create or delete.
    expect(screen.queryByRole('button', { name: /Novo|Criar/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ações de Na fila' })).not.toBeInTheDocument();
  });

  it('edits an item’s category, label and colour, and refreshes the palette', async () => {
    const { user, calls, queryClient } = await openItems(['USUARIOS.LIST', 'USUARIOS.UPDATE']);
    // What badges elsewhere read, as if another page had loaded it.
    queryClient.setQueryData(statusItemKeys.palette(), DEFAULT_STATUS_ITEMS);
    await user.click(await screen.findByRole('button', { name: 'Ações de Tempo esgotado' }));
    expect(screen.queryByRole('menuitem', { name: 'Excluir' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const drawer = await screen.findByRole('dialog', { name: 'Editar item: Tempo esgotado' });
    const category = within(drawer).getByRole('combobox', { name: /^Categoria no painel/ });
    expect(category).toHaveValue('Falha');
    const label = within(drawer).getByRole('textbox', { name: /^Rótulo/ });
    expect(label).toHaveValue('Demorou demais');
    const color = within(drawer).getByRole('textbox', { name: /^Cor/ });
    expect(color).toHaveValue('#123456');

    await user.click(category);
    await user.click(await screen.findByRole('option', { name: 'Outros' }));
    await user.clear(label);
    await user.type(label, 'Lento');
    expect(within(drawer).getByText('Lento')).toBeInTheDocument();
    await user.clear(color);
    await user.type(color, '#ABCDEF');
    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/update')).toHaveLength(1));
    expect(callsTo(calls, '/update')[0]?.body).toEqual({
      id: 6,
      category: 'others',
      label: 'Lento',
      color: '#abcdef',
    });
    await waitFor(() =>
      expect(queryClient.getQueryState(statusItemKeys.palette())?.isInvalidated).toBe(true),
    );
  });

  it.each([
    ['pt', 'Ações de Na fila', 'Editar', 'Editar item: Na fila', /^Cor/, 'Salvar'],
    ['en', 'Actions for Queued', 'Edit', 'Edit item: Queued', /^Colour/, 'Save'],
  ] as const)(
    'refuses a colour that is not #rrggbb, in %s',
    async (lang, actions, edit, title, colorLabel, save) => {
      const { user, calls } = await openItems(['USUARIOS.LIST', 'USUARIOS.UPDATE'], { lang });
      await user.click(await screen.findByRole('button', { name: actions }));
      await user.click(await screen.findByRole('menuitem', { name: edit }));
      const drawer = await screen.findByRole('dialog', { name: title });
      const color = within(drawer).getByRole('textbox', { name: colorLabel });
      await user.clear(color);
      await user.type(color, 'azul');
      await user.click(within(drawer).getByRole('button', { name: save }));
      expect(
        await within(drawer).findByText(
          lang === 'pt'
            ? 'Deve ser uma cor no formato #rrggbb'
            : 'Must be a colour written #rrggbb',
        ),
      ).toBeInTheDocument();
      expect(callsTo(calls, '/update')).toHaveLength(0);
    },
  );

  it('is also the /configuration page', async () => {
    await openItems(['USUARIOS.LIST'], { path: '/configuration', lang: 'en' });
    expect(await screen.findByRole('table', { name: 'Configuration items' })).toBeInTheDocument();
    expect(await screen.findByText('Timeout')).toBeInTheDocument();
    expect(screen.getAllByText('Others')).toHaveLength(2);
    // Blank labels read as the status name, marked as the default, in English too.
    expect(screen.getAllByText('Queued')).toHaveLength(3);
    expect(screen.getAllByText('(default)').length).toBeGreaterThan(0);
  });
});

describe('execution status badges', () => {
  function renderBadges(reply: () => MockReply) {
    setToken('token');
    const { calls } = mockFetch((call) => {
      if (call.url.endsWith('/rota/status/item/api/v1/palette')) return reply();
      throw new Error(`unexpected API call: ${call.url}`);
    });
    renderElement(
      <>
        <ExecutionStatusBadge status="timeout" />
        <ExecutionStatusBadge status="success" />
      </>,
    );
    return calls;
  }

  it('use the client’s labels and colours from the palette', async () => {
    const palette: StatusPaletteEntry[] = DEFAULT_STATUS_ITEMS.map((item) =>
      item.status === 'timeout' ? { ...item, label: 'Demorou demais', color: '#123456' } : item,
    );
    const calls = renderBadges(() => ({ status: 200, body: { data: palette } }));
    const custom = await screen.findByText('Demorou demais');
    // The theme keeps the client's colour and adds a readable tone for the other scheme.
    expect(custom.closest('.mantine-Badge-root')?.getAttribute('style')).toContain('#123456');
    expect(screen.getByText('Sucesso')).toBeInTheDocument();
    expect(callsTo(calls, '/palette')[0]?.body).toEqual({});
  });

  it('fall back to the defaults when the palette cannot be read', async () => {
    const calls = renderBadges(() => ({
      status: 500,
      body: { code: 'internal_error', message: 'x' },
    }));
    await waitFor(() => expect(callsTo(calls, '/palette')).toHaveLength(1));
    const badge = screen.getByText('Tempo esgotado');
    expect(badge.closest('.mantine-Badge-root')?.getAttribute('style')).toContain(
      DEFAULT_STATUS_ITEMS.find((i) => i.status === 'timeout')!.color,
    );
    // Quiet: no error popup for a palette.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('the dashboard category cards', () => {
  it('name in their hints the statuses each category counts, per the palette', async () => {
    setToken('token');
    const palette: StatusPaletteEntry[] = DEFAULT_STATUS_ITEMS.map((item) =>
      item.status === 'cancelled'
        ? { ...item, category: 'failure' }
        : item.status === 'timeout'
          ? { ...item, category: 'others', label: 'SLA estourado' }
          : item,
    );
    mockFetch((call) => {
      if (call.url.endsWith('/rota/status/item/api/v1/palette')) {
        return { status: 200, body: { data: palette } };
      }
      throw new Error(`unexpected API call: ${call.url}`);
    });
    renderElement(
      <CategoryCards categories={{ process: 1, failure: 2, others: 3, idle: 4 }} loading={false} />,
    );
    expect(
      await screen.findByText(
        'Robôs cuja última execução no período está em: erro de negócio, erro de aplicação ou cancelada.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Robôs cuja última execução no período está em: sucesso ou SLA estourado.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'Robôs cuja última execução no período está em: na fila ou em processamento.',
      ),
    ).toBeInTheDocument();
  });
});

describe('the status items strings', () => {
  const keys = (tree: object, prefix = ''): string[] =>
    Object.entries(tree).flatMap(([key, value]) =>
      value && typeof value === 'object'
        ? keys(value as object, `${prefix}${key}.`)
        : [`${prefix}${key}`],
    );
  it('have the same keys in pt and en', () => {
    expect(keys(pt).sort()).toEqual(keys(en).sort());
  });
});
