import { screen, waitFor, within } from '@testing-library/react';
import type { ListResponse } from '@rota/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DataTable, useRowSelection, type DataTableQuery } from '../src/components/data-table';
import { useListState } from '../src/lib/use-list-state';
import { forbidFetch, page } from './http-mock';
import { renderElement, resetEnvironment } from './render';

type Thing = { id: number; name: string; created_at: string };

const alpha: Thing = { id: 1, name: 'Alpha', created_at: '2026-11-01T10:00:00Z' };
const beta: Thing = { id: 2, name: 'Beta', created_at: '2026-11-02T10:00:00Z' };

function loaded(data: ListResponse<Thing>): DataTableQuery<Thing> {
  return { data, isPending: false, isError: false, refetch: vi.fn() };
}

type HarnessProps = {
  query: DataTableQuery<Thing>;
  onEdit?: (thing: Thing) => void;
  onBulk?: (things: Thing[]) => void;
  selectable?: boolean;
};

function Harness({
  query,
  onEdit = () => {},
  onBulk = () => {},
  selectable = false,
}: HarnessProps) {
  const list = useListState({
    sorts: ['name', 'created_at'] as const,
    defaultSort: 'name',
    filters: ['kind'] as const,
  });
  const selection = useRowSelection<number>(JSON.stringify(list.query));
  return (
    <DataTable
      label="Coisas"
      columns={[
        { key: 'name', header: 'Nome', sort: 'name', render: (thing) => thing.name },
        { key: 'created', header: 'Criado', sort: 'created_at', render: (t) => t.created_at },
        { key: 'plain', header: 'Sem ordem', render: () => 'x' },
      ]}
      query={query}
      list={list}
      rowKey={(thing) => thing.id}
      rowLabel={(thing) => thing.name}
      searchable
      empty={{
        title: 'Nenhuma coisa ainda',
        description: 'Crie uma coisa para começar.',
        action: <button type="button">Nova coisa</button>,
      }}
      rowActions={[
        { key: 'edit', label: 'Editar', onClick: onEdit },
        { key: 'hidden', label: 'Escondida', hidden: true, onClick: () => {} },
      ]}
      selection={selectable ? selection : undefined}
      bulkActions={(rows) => (
        <button type="button" onClick={() => onBulk(rows)}>
          Excluir selecionados
        </button>
      )}
    />
  );
}

beforeEach(async () => {
  await resetEnvironment('pt');
  forbidFetch();
});

describe('DataTable', () => {
  it('shows the rows in a table named by its label, the default sort marked on its head', () => {
    renderElement(<Harness query={loaded(page([alpha, beta]))} />, { path: '/things' });
    const table = screen.getByRole('table', { name: 'Coisas' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByRole('columnheader', { name: /Nome/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    expect(screen.getByRole('columnheader', { name: /Criado/ })).toHaveAttribute(
      'aria-sort',
      'none',
    );
    expect(screen.getByRole('columnheader', { name: 'Sem ordem' })).not.toHaveAttribute(
      'aria-sort',
    );
    expect(screen.getByText('1–2 de 2')).toBeInTheDocument();
  });

  it('sorting a head writes sort and order to the URL, from page 1', async () => {
    const { router, user } = renderElement(<Harness query={loaded(page([alpha, beta]))} />, {
      path: '/things?page=2',
    });
    await user.click(screen.getByRole('button', { name: 'Nome' }));
    expect(router.state.location.search).toBe('?sort=name&order=desc');
    expect(screen.getByRole('columnheader', { name: /Nome/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await user.click(screen.getByRole('button', { name: 'Criado' }));
    expect(router.state.location.search).toBe('?sort=created_at&order=asc');
    expect(screen.getByRole('columnheader', { name: /Criado/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
  });

  it('changes the page size (10/20/50/100) in the URL', async () => {
    const { router, user } = renderElement(
      <Harness query={loaded(page([alpha, beta], { total: 45 }))} />,
      { path: '/things?page=2' },
    );
    const size = screen.getByRole('combobox', { name: 'Linhas por página' });
    expect(size).toHaveValue('20');
    await user.click(size);
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['10', '20', '50', '100']);
    await user.click(screen.getByRole('option', { name: '50' }));
    expect(router.state.location.search).toBe('?per_page=50');
  });

  it('pages through meta.total with labelled controls', async () => {
    const { router, user } = renderElement(
      <Harness query={loaded(page([alpha, beta], { total: 45, current_page: 1 }))} />,
      { path: '/things' },
    );
    const nav = screen.getByRole('navigation', { name: 'Paginação' });
    expect(within(nav).getByRole('button', { name: 'Página 3' })).toBeInTheDocument();
    await user.click(within(nav).getByRole('button', { name: 'Página 2' }));
    expect(router.state.location.search).toBe('?page=2');
    await user.click(within(nav).getByRole('button', { name: 'Próxima página' }));
    expect(screen.getByText('1–20 de 45')).toBeInTheDocument();
  });

  it('says "more than" when a search was counted only up to its limit', () => {
    const capped = page([alpha, beta], { total: 10_000 });
    renderElement(
      <Harness query={loaded({ ...capped, meta: { ...capped.meta, total_capped: true } })} />,
      { path: '/things' },
    );
    expect(screen.getByText('1–20 de mais de 10.000')).toBeInTheDocument();
  });

  it('shows a skeleton while the first page loads', () => {
    renderElement(
      <Harness query={{ data: undefined, isPending: true, isError: false, refetch: vi.fn() }} />,
      { path: '/things' },
    );
    expect(screen.getByRole('status', { name: 'Carregando…' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says what to do when the list is empty, with the primary action', () => {
    renderElement(<Harness query={loaded(page([]))} />, { path: '/things' });
    expect(screen.getByText('Nenhuma coisa ainda')).toBeInTheDocument();
    expect(screen.getByText('Crie uma coisa para começar.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Nova coisa' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('with a search or filter, an empty list offers to clear them instead', async () => {
    const { router, user } = renderElement(<Harness query={loaded(page([]))} />, {
      path: '/things?search=zzz&kind=a&sort=name',
    });
    expect(screen.getByText('Nada encontrado')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Nova coisa' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Limpar filtros' }));
    expect(router.state.location.search).toBe('?sort=name');
  });

  it('offers a retry when the list fails to load', async () => {
    const refetch = vi.fn();
    const { user } = renderElement(
      <Harness query={{ data: undefined, isPending: false, isError: true, refetch }} />,
      { path: '/things' },
    );
    expect(screen.getByText('Não foi possível carregar a lista.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('puts row actions in a menu at the row’s end, named after the row', async () => {
    const onEdit = vi.fn();
    const { user } = renderElement(
      <Harness query={loaded(page([alpha, beta]))} onEdit={onEdit} />,
      { path: '/things' },
    );
    await user.click(screen.getByRole('button', { name: 'Ações de Beta' }));
    expect(screen.queryByRole('menuitem', { name: 'Escondida' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    expect(onEdit).toHaveBeenCalledWith(beta);
  });

  it('selects rows, all of the page at once, for bulk actions', async () => {
    const onBulk = vi.fn();
    const { user } = renderElement(
      <Harness query={loaded(page([alpha, beta]))} onBulk={onBulk} selectable />,
      { path: '/things' },
    );
    expect(screen.queryByRole('button', { name: 'Excluir selecionados' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar todos desta página' }));
    expect(screen.getByRole('checkbox', { name: 'Selecionar Alpha' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Selecionar Beta' })).toBeChecked();
    expect(screen.getByText('2 selecionados')).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Alpha' }));
    expect(screen.getByText('1 selecionado')).toBeInTheDocument();
    expect(
      screen.getByRole('checkbox', { name: 'Selecionar todos desta página' }),
    ).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Excluir selecionados' }));
    expect(onBulk).toHaveBeenCalledWith([beta]);

    await user.click(screen.getByRole('button', { name: 'Limpar seleção' }));
    expect(screen.getByRole('checkbox', { name: 'Selecionar Beta' })).not.toBeChecked();
  });

  it('empties the selection when the list changes (another page, filter or sort)', async () => {
    const { user } = renderElement(<Harness query={loaded(page([alpha, beta]))} selectable />, {
      path: '/things',
    });
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Alpha' }));
    expect(screen.getByText('1 selecionado')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Criado' }));
    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: 'Selecionar Alpha' })).not.toBeChecked(),
    );
  });

  it('speaks English too', async () => {
    await resetEnvironment('en');
    forbidFetch();
    renderElement(<Harness query={loaded(page([alpha], { total: 1 }))} selectable />, {
      path: '/things',
    });
    expect(screen.getByRole('combobox', { name: 'Rows per page' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Actions for Alpha' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select all on this page' })).toBeInTheDocument();
    expect(screen.getByText('1–1 of 1')).toBeInTheDocument();
  });
});
