import type { Calendar } from '@rota/contract';
import { EntitySelect, type EntitySelectProps } from '../../../components/entity-select';
import { calendarQueryOptions } from '../api/get-calendar';
import { calendarsQueryOptions } from '../api/list-calendars';
import { useCalendarsTranslation } from '../i18n';

type CalendarSelectProps = Omit<
  EntitySelectProps<Calendar>,
  'listQuery' | 'itemQuery' | 'getId' | 'getLabel'
>;

/** Choose one of the client's business calendars, searching by name on the server. */
export function CalendarSelect({ label, placeholder, ...props }: CalendarSelectProps) {
  const t = useCalendarsTranslation();
  return (
    <EntitySelect
      label={label ?? t('select.calendar')}
      placeholder={placeholder ?? t('select.placeholder')}
      listQuery={(search) =>
        calendarsQueryOptions({
          page: 1,
          per_page: 50,
          sort: 'name',
          order: 'asc',
          ...(search ? { search } : {}),
        })
      }
      itemQuery={calendarQueryOptions}
      getId={(calendar) => calendar.rota_calendars_id}
      getLabel={(calendar) => `${calendar.name} (${calendar.time_zone})`}
      {...props}
    />
  );
}
