import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useListState } from '../src/lib/use-list-state';
import { forbidFetch } from './http-mock';
import { renderElement, resetEnvironment } from './render';

function Probe({ prefix }: { prefix?: string }) {
  const list = useListState({
    sorts: ['name', 'created_at'] as const,
    defaultSort: 'name',
    defaultOrder: 'asc',
    filters: ['active', 'status'] as const,
    prefix,
  });
  return (
    <div>
      <output aria-label="query">{JSON.stringify(list.query)}</output>
      <output aria-label="filters">{JSON.stringify(list.filters)}</output>
      <output aria-label="has filters">{String(list.hasFilters)}</output>
      <input
        aria-label="search"
        value={list.searchInput}
        onChange={(event) => list.setSearch(event.currentTarget.value)}
      />
      <button onClick={() => list.setPage(3)}>page 3</button>
      <button onClick={() => list.setPerPage(50)}>per page 50</button>
      <button onClick={() => list.setPerPage(20)}>per page 20</button>
      <button onClick={() => list.setSort('name')}>sort name</button>
      <button onClick={() => list.setSort('created_at', 'desc')}>newest first</button>
      <button onClick={() => list.setFilter('active', true)}>only active</button>
      <button onClick={() => list.setFilters({ active: false, status: 'pending' })}>both</button>
      <button onClick={() => list.clearFilters()}>clear</button>
    </div>
  );
}

const query = () => JSON.parse(screen.getByLabelText('query').textContent ?? '{}') as unknown;

beforeEach(async () => {
  await resetEnvironment('pt');
  forbidFetch();
});

describe('useListState', () => {
  it('starts from the defaults: page 1, 20 per page, the default sort', () => {
    renderElement(<Probe />, { path: '/robot' });
    expect(query()).toEqual({ page: 1, per_page: 20, sort: 'name', order: 'asc' });
    expect(screen.getByLabelText('has filters')).toHaveTextContent('false');
  });

  it('reads page, size, search, sort, order and filters from the URL', () => {
    renderElement(<Probe />, {
      path: '/robot?page=2&per_page=50&search=fat&sort=created_at&order=desc&active=true&x=1',
    });
    expect(query()).toEqual({
      page: 2,
      per_page: 50,
      search: 'fat',
      sort: 'created_at',
      order: 'desc',
    });
    expect(screen.getByLabelText('filters')).toHaveTextContent('{"active":"true"}');
    expect(screen.getByLabelText('has filters')).toHaveTextContent('true');
  });

  it('ignores values the list does not allow (page size 30, unknown sort, page 0)', () => {
    renderElement(<Probe />, { path: '/robot?page=0&per_page=30&sort=password&order=up' });
    expect(query()).toEqual({ page: 1, per_page: 20, sort: 'name', order: 'asc' });
  });

  it('resets the page to 1 when a filter, the size or the sort changes', async () => {
    const { router, user } = renderElement(<Probe />, { path: '/robot?page=4' });
    await user.click(screen.getByRole('button', { name: 'only active' }));
    expect(router.state.location.search).toBe('?active=true');

    await user.click(screen.getByRole('button', { name: 'page 3' }));
    expect(router.state.location.search).toBe('?active=true&page=3');
    await user.click(screen.getByRole('button', { name: 'per page 50' }));
    expect(router.state.location.search).toBe('?active=true&per_page=50');

    await user.click(screen.getByRole('button', { name: 'page 3' }));
    await user.click(screen.getByRole('button', { name: 'newest first' }));
    expect(router.state.location.search).toBe(
      '?active=true&per_page=50&sort=created_at&order=desc',
    );
  });

  it('leaves defaults out of the URL', async () => {
    const { router, user } = renderElement(<Probe />, { path: '/robot?per_page=50&page=2' });
    await user.click(screen.getByRole('button', { name: 'per page 20' }));
    expect(router.state.location.search).toBe('');
  });

  it('reverses the order when the current sort column is chosen again', async () => {
    const { router, user } = renderElement(<Probe />, { path: '/robot' });
    await user.click(screen.getByRole('button', { name: 'sort name' }));
    expect(router.state.location.search).toBe('?sort=name&order=desc');
    await user.click(screen.getByRole('button', { name: 'sort name' }));
    expect(router.state.location.search).toBe('?sort=name&order=asc');
  });

  it('sets several filters at once and clears them with the search', async () => {
    const { router, user } = renderElement(<Probe />, { path: '/robot?search=abc&sort=name' });
    await user.click(screen.getByRole('button', { name: 'both' }));
    expect(router.state.location.search).toBe('?search=abc&sort=name&active=false&status=pending');
    await user.click(screen.getByRole('button', { name: 'clear' }));
    expect(router.state.location.search).toBe('?sort=name');
    expect(screen.getByLabelText('search')).toHaveValue('');
  });

  it('debounces the search box into the URL and goes back to page 1', async () => {
    const { router, user } = renderElement(<Probe />, { path: '/robot?page=3' });
    await user.type(screen.getByLabelText('search'), 'fat');
    // The box follows every keystroke; the URL waits for a pause.
    expect(screen.getByLabelText('search')).toHaveValue('fat');
    expect(router.state.location.search).toBe('?page=3');
    await waitFor(() => expect(router.state.location.search).toBe('?search=fat'));
    expect(query()).toMatchObject({ page: 1, search: 'fat' });
  });

  it('follows the URL when it changes from elsewhere (back button)', async () => {
    const { router, user } = renderElement(<Probe />, { path: '/robot?search=old' });
    expect(screen.getByLabelText('search')).toHaveValue('old');
    await user.click(screen.getByRole('button', { name: 'only active' }));
    await act(() => router.navigate('/robot?search=new'));
    expect(screen.getByLabelText('search')).toHaveValue('new');
  });

  it('keeps a prefixed list apart from the page’s other parameters', async () => {
    const { router, user } = renderElement(<Probe prefix="fields_" />, {
      path: '/robot/1?tab=overview&page=9&fields_page=2',
    });
    expect(query()).toMatchObject({ page: 2 });
    await user.click(screen.getByRole('button', { name: 'only active' }));
    expect(router.state.location.search).toBe('?tab=overview&page=9&fields_active=true');
  });

  it('applies filter defaults while the URL names none, and keeps an emptied one empty', async () => {
    function Dated() {
      const list = useListState({
        filters: ['startDate', 'status'] as const,
        filterDefaults: { startDate: '2026-11-12' },
      });
      return (
        <div>
          <output aria-label="filters">{JSON.stringify(list.filters)}</output>
          <output aria-label="has filters">{String(list.hasFilters)}</output>
          <button onClick={() => list.setFilter('startDate', '')}>empty</button>
          <button onClick={() => list.setFilter('startDate', '2026-11-01')}>other</button>
          <button onClick={() => list.setFilter('startDate', '2026-11-12')}>default</button>
          <button onClick={() => list.clearFilters()}>clear</button>
        </div>
      );
    }
    const filters = () =>
      JSON.parse(screen.getByLabelText('filters').textContent ?? '{}') as unknown;
    const { router, user } = renderElement(<Dated />, { path: '/activity' });
    expect(filters()).toEqual({ startDate: '2026-11-12' });
    expect(screen.getByLabelText('has filters')).toHaveTextContent('false');

    await user.click(screen.getByRole('button', { name: 'other' }));
    expect(router.state.location.search).toBe('?startDate=2026-11-01');
    expect(screen.getByLabelText('has filters')).toHaveTextContent('true');

    await user.click(screen.getByRole('button', { name: 'empty' }));
    expect(router.state.location.search).toBe('?startDate=');
    expect(filters()).toEqual({});
    expect(screen.getByLabelText('has filters')).toHaveTextContent('true');

    await user.click(screen.getByRole('button', { name: 'default' }));
    expect(router.state.location.search).toBe('');

    await user.click(screen.getByRole('button', { name: 'empty' }));
    await user.click(screen.getByRole('button', { name: 'clear' }));
    expect(router.state.location.search).toBe('');
    expect(filters()).toEqual({ startDate: '2026-11-12' });
  });
});
