import { Button, Divider, Group, Text, TextInput } from '@mantine/core';
import { Controller, useWatch, type FieldError } from 'react-hook-form';
import { calendarCreateSchema, calendarUpdateSchema, type Calendar } from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { fieldError } from '../../../lib/form-errors';
import { useFormat } from '../../../lib/format';
import { formSchema, type FormValues } from '../../../lib/form-schema';
import { useCreateCalendar } from '../api/create-calendar';
import { useUpdateCalendar } from '../api/update-calendar';
import { useCalendarsTranslation } from '../i18n';
import { todayIn, type Day } from './calendar-days';
import { DatesImport } from './dates-import';
import { MonthView } from './month-view';
import { TimeZoneSelect } from './time-zone-select';

/** What the inputs edit: '' for no zone chosen (the server's), the days as a plain list. */
type CalendarInputs = FormValues<
  typeof calendarCreateSchema,
  { time_zone: string; excluded_dates: Day[] }
>;

/** A zone left empty is left out: the server's applies on create, the stored one on update. */
function calendarBody(values: CalendarInputs) {
  const { time_zone, ...rest } = values;
  return { ...rest, ...(time_zone ? { time_zone } : {}) };
}

const FIELDS = ['name', 'time_zone', 'excluded_dates'] as const;

function ExcludedDays<TOutput>({ form }: { form: FormDrawerForm<CalendarInputs, TOutput> }) {
  const t = useCalendarsTranslation();
  const format = useFormat();
  const timeZone = useWatch({ control: form.control, name: 'time_zone' });
  const today = todayIn(timeZone);
  const { errors } = form.formState;
  // The list's own error ("too long"), else the first day's.
  const dayErrors = errors.excluded_dates;
  const error = fieldError(
    dayErrors?.message
      ? (dayErrors as FieldError)
      : (dayErrors?.root ??
          (Array.isArray(dayErrors)
            ? (dayErrors as (FieldError | undefined)[]).find(Boolean)
            : undefined)),
  );

  return (
    <Controller
      control={form.control}
      name="excluded_dates"
      render={({ field }) => {
        const days: Day[] = field.value ?? [];
        const excluded = new Set(days);
        const set = (next: Set<Day>) => field.onChange([...next].sort());
        return (
          <>
            <Divider label={t('form.excludedDates')} labelPosition="left" />
            <Group justify="space-between" gap="xs">
              <Text size="sm" c="dimmed">
                {t('form.excludedCount', { count: excluded.size })}
              </Text>
              {excluded.size > 0 ? (
                <Button
                  variant="subtle"
                  color="red"
                  size="compact-sm"
                  onClick={() => set(new Set())}
                >
                  {t('form.clearDates')}
                </Button>
              ) : null}
            </Group>
            <Text size="xs" c="dimmed">
              {t('form.monthHint')}
            </Text>
            <MonthView
              excluded={excluded}
              today={today}
              lang={format.lang}
              onToggle={(day) => {
                const next = new Set(excluded);
                if (next.has(day)) next.delete(day);
                else next.add(day);
                set(next);
              }}
            />
            {error ? (
              <Text size="sm" c="red" role="alert">
                {error}
              </Text>
            ) : null}
            <DatesImport
              lang={format.lang}
              onImport={(imported) => set(new Set([...excluded, ...imported]))}
            />
          </>
        );
      }}
    />
  );
}

function CalendarFormInputs<TOutput>({
  form,
  editing,
}: {
  form: FormDrawerForm<CalendarInputs, TOutput>;
  /** A stored calendar keeps a zone: emptying it would only look like the server's. */
  editing: boolean;
}) {
  const t = useCalendarsTranslation();
  const { errors } = form.formState;
  return (
    <>
      <TextInput
        label={t('form.name')}
        withAsterisk
        data-autofocus
        error={fieldError(errors.name)}
        {...form.register('name')}
      />
      <Controller
        control={form.control}
        name="time_zone"
        render={({ field }) => (
          <TimeZoneSelect
            label={t('form.timeZone')}
            description={t('form.timeZoneHint')}
            placeholder={t('form.timeZonePlaceholder')}
            clearable={!editing}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            name={field.name}
            error={fieldError(errors.time_zone)}
          />
        )}
      />
      <ExcludedDays form={form} />
    </>
  );
}

type CalendarFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The calendar to edit; without it the drawer creates one. */
  calendar?: Calendar | null;
};

/** "Novo calendário" / "Editar calendário": name, time zone and the excluded days. */
export function CalendarFormDrawer({ opened, onClose, calendar }: CalendarFormDrawerProps) {
  const t = useCalendarsTranslation();
  const create = useCreateCalendar();
  const update = useUpdateCalendar();

  if (calendar) {
    return (
      <FormDrawer
        opened={opened}
        onClose={onClose}
        title={t('form.editTitle')}
        schema={formSchema(calendarUpdateSchema, (values: CalendarInputs) => ({
          id: calendar.rota_calendars_id,
          ...calendarBody(values),
        }))}
        fields={FIELDS}
        defaultValues={{
          name: calendar.name,
          time_zone: calendar.time_zone,
          excluded_dates: calendar.excluded_dates,
        }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => <CalendarFormInputs form={form} editing />}
      </FormDrawer>
    );
  }
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      submitLabel={t('form.create')}
      schema={formSchema(calendarCreateSchema, calendarBody)}
      fields={FIELDS}
      defaultValues={{ name: '', time_zone: '', excluded_dates: [] }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => <CalendarFormInputs form={form} editing={false} />}
    </FormDrawer>
  );
}
