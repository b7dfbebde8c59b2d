import { useEffect } from 'react';
import { Box, Group, Pagination, Select, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES, type ListMeta, type ListResponse } from '@rota/contract';
import { useFormat } from '../../lib/format';
import type { ListState } from '../../lib/use-list-state';

/**
 * Below a server-side list: the page size, "1–20 of 143" ("of more than 10,000" when a search
 * was counted only that far), and the pages when there is more than one. Nothing while the list
 * is empty. DataTable's, and any list drawn as a table of its own.
 */
export function ListFooter({
  meta,
  list,
}: {
  meta: ListMeta;
  list: Pick<ListState, 'perPage' | 'setPerPage' | 'setPage'>;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const { total, per_page: perPage, current_page: currentPage } = meta;
  if (total === 0) return null;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const from = (currentPage - 1) * perPage + 1;
  const to = Math.min(total, currentPage * perPage);
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <Group gap="sm" wrap="nowrap">
        <Select
          aria-label={t('common.table.rowsPerPage')}
          data={PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
          value={String(list.perPage)}
          onChange={(value) => value && list.setPerPage(Number(value))}
          allowDeselect={false}
          w={80}
          size="xs"
        />
        <Text size="sm" c="dimmed" aria-live="polite">
          {t(meta.total_capped ? 'common.table.rangeCapped' : 'common.table.range', {
            from: format.number(from),
            to: format.number(to),
            total: format.number(total),
          })}
        </Text>
      </Group>
      {pages > 1 ? (
        <Box component="nav" aria-label={t('common.table.pagination')}>
          <Pagination
            total={pages}
            value={Math.min(currentPage, pages)}
            onChange={(page) => list.setPage(page)}
            size="sm"
            siblings={1}
            boundaries={1}
            getItemProps={(page) => ({ 'aria-label': t('common.table.page', { page }) })}
            getControlProps={(control) => ({
              'aria-label': t(
                control === 'previous'
                  ? 'common.table.previousPage'
                  : control === 'next'
                    ? 'common.table.nextPage'
                    : control === 'first'
                      ? 'common.table.firstPage'
                      : 'common.table.lastPage',
              ),
            })}
          />
        </Box>
      ) : null}
    </Group>
  );
}

/**
 * A page past the end (the last row of the last page went away): goes to the last page.
 * Answers whether the page shown is past the end, so the list says nothing of "no rows" meanwhile.
 */
export function useLastPageWhenPastTheEnd(
  list: Pick<ListState, 'page' | 'setPage'>,
  data: ListResponse<unknown> | undefined,
): boolean {
  const total = data?.meta.total ?? 0;
  const pages = data ? Math.max(1, Math.ceil(total / data.meta.per_page)) : 1;
  const pastTheEnd = !!data && data.data.length === 0 && total > 0 && list.page > pages;
  const { setPage } = list;
  useEffect(() => {
    if (pastTheEnd) setPage(pages);
  }, [pastTheEnd, pages, setPage]);
  return pastTheEnd;
}
