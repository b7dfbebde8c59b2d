import { Anchor, Badge, Text } from '@mantine/core';
import { IconCalendarOff, IconCalendarTime } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import type { Calendar } from '@rota/contract';
import { ConfirmDelete } from '../../../components/confirm-dialog';
import {
  CreateButton,
  DataTable,
  type DataTableColumn,
  type RowAction,
  useStandardRowActions,
} from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { useFormat } from '../../../lib/format';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useCan } from '../../auth';
import { useDeleteCalendar } from '../api/delete-calendar';
import { CALENDAR_SORTS, calendarsQueryOptions } from '../api/list-calendars';
import { todayIn } from '../components/calendar-days';
import { CalendarFormDrawer } from '../components/calendar-form-drawer';
import { useCalendarsTranslation } from '../i18n';

/** The next few excluded days shown in a row. */
const UPCOMING_SHOWN = 3;

/**
 * `/scheduling/calendar`: the client's business calendars. Guarded like the
 * schedulings (AGENDAMENTOS.*); a calendar a scheduling names cannot be deleted (409).
 */
export default function CalendarsPage() {
  const t = useCalendarsTranslation();
  const can = useCan();
  const format = useFormat();
  const list = useListState({ sorts: CALENDAR_SORTS, defaultSort: 'name', defaultOrder: 'asc' });
  const query = useQuery(calendarsQueryOptions(list.query));
  const drawer = useDialog<Calendar | null>();
  const remove = useDialog<Calendar>();
  const deleteCalendar = useDeleteCalendar();
  const navigate = useNavigate();
  const canCreate = can('AGENDAMENTOS.CREATE');
  const canUpdate = can('AGENDAMENTOS.UPDATE');
  const canDelete = can('AGENDAMENTOS.DELETE');

  const columns: DataTableColumn<Calendar>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      sort: 'name',
      render: (calendar) => (
        <Text size="sm" fw={600}>
          {calendar.name}
        </Text>
      ),
    },
    {
      key: 'time_zone',
      header: t('columns.timeZone'),
      render: (calendar) => <Text size="sm">{calendar.time_zone}</Text>,
    },
    {
      key: 'excluded',
      header: t('columns.excluded'),
      align: 'right',
      render: (calendar) => <Text size="sm">{format.number(calendar.excluded_dates.length)}</Text>,
    },
    {
      key: 'upcoming',
      header: t('columns.upcoming'),
      visibleFrom: 'sm',
      render: (calendar) => {
        const today = todayIn(calendar.time_zone);
        const upcoming = calendar.excluded_dates.filter((day) => day >= today);
        if (upcoming.length === 0) {
          return (
            <Text size="sm" c="dimmed">
              —
            </Text>
          );
        }
        const more = upcoming.length - UPCOMING_SHOWN;
        return (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {upcoming.slice(0, UPCOMING_SHOWN).map(format.date).join(', ')}
            {more > 0 ? (
              <Badge ml={6} variant="light" color="gray" radius="sm" tt="none">
                {t('columns.more', { count: more })}
              </Badge>
            ) : null}
          </Text>
        );
      },
    },
  ];

  const actions = useStandardRowActions();
  const rowActions: RowAction<Calendar>[] = [
    {
      key: 'schedulings',
      label: t('actions.schedulings'),
      icon: <IconCalendarTime size={16} aria-hidden />,
      onClick: (calendar) =>
        void navigate(`/scheduling?rota_calendars_id=${calendar.rota_calendars_id}`),
    },
    actions.edit({ hidden: !canUpdate, onClick: (calendar) => drawer.open(calendar) }),
    actions.remove({ hidden: !canDelete, onClick: (calendar) => remove.open(calendar) }),
  ];

  const newCalendar = canCreate ? (
    <CreateButton onClick={() => drawer.open(null)}>{t('list.new')}</CreateButton>
  ) : null;

  return (
    <>
      <PageHeader title={t('page.title')} subtitle={t('page.subtitle')} actions={newCalendar} />
      <Text size="sm" mb="sm">
        <Anchor component={Link} to="/scheduling">
          {t('page.back')}
        </Anchor>
      </Text>
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(calendar) => calendar.rota_calendars_id}
        rowLabel={(calendar) => calendar.name}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        empty={{
          title: t('list.emptyTitle'),
          description: canCreate ? t('list.emptyDescription') : t('list.emptyDescriptionReadOnly'),
          action: newCalendar,
          icon: <IconCalendarOff size={28} aria-hidden />,
        }}
        rowActions={rowActions}
        minWidth={340}
      />
      <CalendarFormDrawer opened={drawer.opened} onClose={drawer.close} calendar={drawer.target} />
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('delete.title', { name: remove.target?.name ?? '' })}
        description={t('delete.description')}
        onConfirm={() =>
          remove.target && deleteCalendar.mutateAsync(remove.target.rota_calendars_id)
        }
      />
    </>
  );
}
