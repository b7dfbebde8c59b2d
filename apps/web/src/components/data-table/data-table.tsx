import { useDeferredValue, useState, type MouseEvent, type ReactNode } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  EmptyState,
  Group,
  Menu,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
  type MantineBreakpoint,
  type MantineColor,
} from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconArrowsSort,
  IconDots,
  IconInbox,
  IconSearch,
  IconSearchOff,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ListResponse } from '@rota/contract';
import type { ListState } from '../../lib/use-list-state';
import { ListFooter, useLastPageWhenPastTheEnd } from './list-footer';
import { LoadingRows } from './loading-rows';

export type DataTableColumn<T> = {
  /** Unique among the columns. */
  key: string;
  /** Head text (also the sort button's name). */
  header: string;
  render: (row: T) => ReactNode;
  /** The server's sort column for this head; without it the head does not sort. */
  sort?: string;
  align?: 'left' | 'center' | 'right';
  width?: number | string;
  /** Hide the column below this breakpoint (secondary data on phones). */
  visibleFrom?: MantineBreakpoint;
};

export type RowAction<T> = {
  key: string;
  label: string;
  icon?: ReactNode;
  color?: MantineColor;
  onClick: (row: T) => void;
  /** Leave the action out (no permission, not applicable to this row). */
  hidden?: boolean | ((row: T) => boolean);
  disabled?: boolean | ((row: T) => boolean);
};

/** What DataTable reads of a TanStack query (`useQuery(...)` fits as it is). */
export type DataTableQuery<T> = {
  data: ListResponse<T> | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching?: boolean;
  refetch: () => unknown;
};

export type DataTableSelection<K> = {
  selected: readonly K[];
  onChange: (keys: K[]) => void;
};

export type DataTableProps<T, K extends string | number> = {
  /** Accessible name of the table ("Robôs"). */
  label: string;
  columns: readonly DataTableColumn<T>[];
  query: DataTableQuery<T>;
  /** The list's URL state from useListState (page, size, sort, search, filters). */
  list: ListState;
  rowKey: (row: T) => K;
  /** Names a row in labels: "Ações de Faturas", "Selecionar Faturas". */
  rowLabel: (row: T) => string;
  /** Show the search box (bound to `list.searchInput`). */
  searchable?: boolean;
  searchPlaceholder?: string;
  /** Filter inputs, shown beside the search box. */
  filters?: ReactNode;
  /** The empty list before any search or filter: say what to do, offer the primary action. */
  empty: { title: string; description: string; action?: ReactNode; icon?: ReactNode };
  rowActions?: readonly RowAction<T>[];
  /** Row click (outside its links, checkbox and menu); the first column should hold a link too. */
  onRowClick?: (row: T) => void;
  /** Checkbox column for bulk actions; selection is per page. */
  selection?: DataTableSelection<K>;
  /** Shown above the table while rows are selected, given those rows. */
  bulkActions?: (rows: T[]) => ReactNode;
  /** Below this width the table scrolls sideways instead of squeezing (phones). */
  minWidth?: number;
  /** Shown in place of the rows (and the pager), e.g. why the filters cannot be applied. */
  notice?: ReactNode;
};

const INTERACTIVE =
  'a, button, input, select, textarea, label, [role="menuitem"], [role="checkbox"]';

function SortIcon({ active, order }: { active: boolean; order: 'asc' | 'desc' }) {
  if (!active) return <IconArrowsSort size={14} aria-hidden style={{ opacity: 0.4 }} />;
  return order === 'asc' ? (
    <IconArrowUp size={14} aria-hidden />
  ) : (
    <IconArrowDown size={14} aria-hidden />
  );
}

function resolve<T>(value: boolean | ((row: T) => boolean) | undefined, row: T): boolean {
  return typeof value === 'function' ? value(row) : (value ?? false);
}

/**
 * A row's actions. The menu (floating-ui's positioning and Mantine's menu state, per row) is
 * built when its button is first pressed: a page of 20 rows built 20 menus before a phone could
 * use the list. The first press opens it, so nothing changes for the user.
 */
function RowMenu<T>({ row, name, actions }: { row: T; name: string; actions: RowAction<T>[] }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState<boolean | null>(null);
  const button = (
    <ActionIcon
      variant="subtle"
      color="gray"
      aria-label={t('common.table.rowActions', { name })}
      // Menu.Target sets both once the menu exists.
      {...(opened === null
        ? {
            'aria-haspopup': 'menu' as const,
            'aria-expanded': false,
            onClick: () => setOpened(true),
          }
        : {})}
    >
      <IconDots size={18} aria-hidden />
    </ActionIcon>
  );
  if (opened === null) return button;
  return (
    <Menu position="bottom-end" shadow="md" withinPortal opened={opened} onChange={setOpened}>
      <Menu.Target>{button}</Menu.Target>
      <Menu.Dropdown>
        {actions.map((action) => (
          <Menu.Item
            key={action.key}
            color={action.color}
            leftSection={action.icon}
            disabled={resolve(action.disabled, row)}
            onClick={() => action.onClick(row)}
          >
            {action.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * A server-side list: search and filters above, sortable heads, a skeleton while the
 * first page loads, an empty state that says what to do, an error with retry, row actions in a
 * menu at the row's end, optional row selection for bulk actions, pagination and page size below.
 * On phones the table scrolls sideways inside its box.
 */
export function DataTable<T, K extends string | number>({
  label,
  columns,
  query,
  list,
  rowKey,
  rowLabel,
  searchable = false,
  searchPlaceholder,
  filters,
  empty,
  rowActions,
  onRowClick,
  selection,
  bulkActions,
  minWidth = 720,
  notice,
}: DataTableProps<T, K>) {
  const { t } = useTranslation();
  // A page of rows draws as a background render, which React slices into short tasks, so a
  // phone's main thread answers while 20 or 100 rows draw (as one task it was the longest of a
  // list page's load); the skeleton stays until then.
  const data = useDeferredValue(query.data);
  const rows = data?.data ?? [];
  const meta = data?.meta;
  const total = meta?.total ?? 0;
  const pastTheEnd = useLastPageWhenPastTheEnd(list, data);

  const keys = rows.map(rowKey);
  const selectedOnPage = selection ? keys.filter((key) => selection.selected.includes(key)) : [];
  const allSelected = keys.length > 0 && selectedOnPage.length === keys.length;
  const someSelected = selectedOnPage.length > 0 && !allSelected;
  const actionsFor = (row: T) =>
    (rowActions ?? []).filter((action) => !resolve(action.hidden, row));
  const withActions = (rowActions ?? []).length > 0;

  function toggleAll() {
    if (!selection) return;
    selection.onChange(allSelected ? [] : keys);
  }

  function toggleRow(key: K) {
    if (!selection) return;
    const next = selectedOnPage.includes(key)
      ? selectedOnPage.filter((k) => k !== key)
      : [...selectedOnPage, key];
    selection.onChange(next);
  }

  function handleRowClick(event: MouseEvent<HTMLTableRowElement>, row: T) {
    if (!onRowClick) return;
    const target = event.target as HTMLElement;
    if (target.closest(INTERACTIVE)) return;
    onRowClick(row);
  }

  const toolbar =
    searchable || filters ? (
      <Group gap="sm" align="flex-end" wrap="wrap">
        {searchable ? (
          <TextInput
            type="search"
            aria-label={t('common.table.search')}
            placeholder={searchPlaceholder ?? t('common.table.search')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={list.searchInput}
            onChange={(event) => list.setSearch(event.currentTarget.value)}
            w={{ base: '100%', xs: 280 }}
          />
        ) : null}
        {filters}
      </Group>
    ) : null;

  const selectedRows = rows.filter((row) => selectedOnPage.includes(rowKey(row)));
  const bulkBar =
    selection && bulkActions && selectedRows.length > 0 ? (
      <Paper withBorder radius="md" px="md" py="xs" bg="var(--mantine-primary-color-light)">
        <Group justify="space-between" gap="sm">
          <Text size="sm" fw={500} role="status">
            {t('common.table.selected', { count: selectedRows.length })}
          </Text>
          <Group gap="xs">
            {bulkActions(selectedRows)}
            <Button size="xs" variant="subtle" onClick={() => selection.onChange([])}>
              {t('common.table.clearSelection')}
            </Button>
          </Group>
        </Group>
      </Paper>
    ) : null;

  let body: ReactNode;
  if (notice) {
    body = notice;
  } else if (query.isError && !query.data) {
    body = (
      <Alert color="red" variant="light" title={t('common.table.loadError')}>
        <Button size="xs" variant="light" color="red" mt="xs" onClick={() => void query.refetch()}>
          {t('app.retry')}
        </Button>
      </Alert>
    );
  } else if (query.isPending || !data) {
    body = <LoadingRows columns={columns.length} rows={Math.min(list.perPage, 8)} />;
  } else if (rows.length === 0 && (total === 0 || !pastTheEnd)) {
    body = list.hasFilters ? (
      <EmptyState
        py="xl"
        icon={<IconSearchOff size={28} aria-hidden />}
        withIndicatorBackground
        title={t('common.table.noResults')}
        description={t('common.table.noResultsHint')}
      >
        <EmptyState.Actions>
          <Button variant="default" onClick={() => list.clearFilters()}>
            {t('common.table.clearFilters')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    ) : (
      <EmptyState
        py="xl"
        icon={empty.icon ?? <IconInbox size={28} aria-hidden />}
        withIndicatorBackground
        title={empty.title}
        description={empty.description}
      >
        {empty.action ? <EmptyState.Actions>{empty.action}</EmptyState.Actions> : null}
      </EmptyState>
    );
  } else {
    body = (
      // `position: relative` makes the box the containing block of absolutely positioned cells'
      // content (VisuallyHidden heads), which would otherwise widen the page on phones.
      <Table.ScrollContainer minWidth={minWidth} type="native" pos="relative">
        <Table
          aria-label={label}
          highlightOnHover={!!onRowClick}
          verticalSpacing="sm"
          aria-busy={query.isFetching ? 'true' : undefined}
          style={{ opacity: query.isFetching ? 0.65 : 1, transition: 'opacity 150ms' }}
        >
          <Table.Thead>
            <Table.Tr>
              {selection ? (
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={t('common.table.selectAll')}
                    checked={allSelected}
                    indeterminate={someSelected}
                    onChange={toggleAll}
                  />
                </Table.Th>
              ) : null}
              {columns.map((column) => {
                const active = !!column.sort && list.sort === column.sort;
                return (
                  <Table.Th
                    key={column.key}
                    w={column.width}
                    ta={column.align}
                    visibleFrom={column.visibleFrom}
                    aria-sort={
                      column.sort
                        ? active
                          ? list.order === 'asc'
                            ? 'ascending'
                            : 'descending'
                          : 'none'
                        : undefined
                    }
                  >
                    {column.sort ? (
                      <UnstyledButton
                        onClick={() => list.setSort(column.sort!)}
                        fw={700}
                        fz="sm"
                        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
                      >
                        {column.header}
                        <SortIcon active={active} order={list.order} />
                      </UnstyledButton>
                    ) : (
                      column.header
                    )}
                  </Table.Th>
                );
              })}
              {withActions ? (
                <Table.Th w={56}>
                  <VisuallyHidden>{t('common.table.actions')}</VisuallyHidden>
                </Table.Th>
              ) : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => {
              const key = rowKey(row);
              const name = rowLabel(row);
              const selected = selectedOnPage.includes(key);
              const actions = withActions ? actionsFor(row) : [];
              return (
                <Table.Tr
                  key={key}
                  onClick={onRowClick ? (event) => handleRowClick(event, row) : undefined}
                  style={onRowClick ? { cursor: 'pointer' } : undefined}
                  bg={selected ? 'var(--mantine-primary-color-light)' : undefined}
                  aria-selected={selection ? selected : undefined}
                >
                  {selection ? (
                    <Table.Td>
                      <Checkbox
                        aria-label={t('common.table.selectRow', { name })}
                        checked={selected}
                        onChange={() => toggleRow(key)}
                      />
                    </Table.Td>
                  ) : null}
                  {columns.map((column) => (
                    <Table.Td key={column.key} ta={column.align} visibleFrom={column.visibleFrom}>
                      {column.render(row)}
                    </Table.Td>
                  ))}
                  {withActions ? (
                    <Table.Td ta="right">
                      {actions.length > 0 ? (
                        <RowMenu row={row} name={name} actions={actions} />
                      ) : null}
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  const footer = !notice && data ? <ListFooter meta={data.meta} list={list} /> : null;

  return (
    <Stack gap="sm">
      {toolbar}
      {bulkBar}
      {body}
      {footer}
    </Stack>
  );
}
