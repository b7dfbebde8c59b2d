import { useEffect, useId } from 'react';
import { Alert, List, Loader, Paper, Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconClock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import type { Language, SchedulingPreview as PreviewBody } from '@rota/contract';
import { LOCALES, useFormat } from '../../../lib/format';
import { isApiError } from '../../../lib/http';
import { browserTimeZone } from '../../calendars';
import { schedulingPreviewQueryOptions } from '../api/preview-scheduling';
import { useSchedulingsTranslation } from '../i18n';

/** How long typing must pause before the preview is asked for. */
export const PREVIEW_DEBOUNCE_MS = 300;

/** The fields the preview reads; the server's errors about them go under them. */
export const PREVIEW_FIELDS = [
  'cron',
  'time_zone',
  'interval_minutes',
  'rota_calendars_id',
] as const;
type PreviewField = (typeof PREVIEW_FIELDS)[number];

export type PreviewInputs = {
  trigger_type: PreviewBody['trigger_type'];
  cron: string;
  time_zone: string;
  interval_minutes: number | '';
  rota_calendars_id: number | null;
};

/**
 * The preview call for what is typed, or why there is none yet: a queue trigger has no times,
 * and an interval or a cron not yet complete is not worth asking the server about.
 */
export function previewBodyOf(
  inputs: PreviewInputs,
): { body: PreviewBody } | { reason: 'queue' | 'interval' | 'cron' } {
  const calendar = inputs.rota_calendars_id ? { rota_calendars_id: inputs.rota_calendars_id } : {};
  if (inputs.trigger_type === 'queue') return { reason: 'queue' };
  if (inputs.trigger_type === 'interval') {
    const minutes = inputs.interval_minutes;
    if (minutes === '' || !Number.isInteger(minutes) || minutes < 1) return { reason: 'interval' };
    return { body: { trigger_type: 'interval', interval_minutes: minutes, ...calendar } };
  }
  const cron = inputs.cron.trim().replace(/\s+/g, ' ');
  if (cron.split(' ').length !== 5) return { reason: 'cron' };
  return {
    body: {
      trigger_type: 'cron',
      cron,
      ...(inputs.time_zone ? { time_zone: inputs.time_zone } : {}),
      ...calendar,
    },
  };
}

type RunLine = { iso: string; text: string; there: string | null };

/** A run in the user's language and zone, and in the scheduling's zone when that is another. */
function runLines(
  next: string[],
  lang: Language,
  zone: string | null,
  dateTime: (date: Date) => string,
): RunLine[] {
  const locale = LOCALES[lang];
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'short' });
  const mine = browserTimeZone();
  let thereTime: Intl.DateTimeFormat | null = null;
  if (zone && zone !== mine) {
    try {
      thereTime = new Intl.DateTimeFormat(locale, {
        timeZone: zone,
        weekday: 'short',
        hour: lang === 'pt' ? '2-digit' : 'numeric',
        minute: '2-digit',
        hourCycle: lang === 'pt' ? 'h23' : undefined,
      });
    } catch {
      thereTime = null;
    }
  }
  return next.map((iso) => {
    const date = new Date(iso);
    return {
      iso,
      text: `${weekday.format(date)} ${dateTime(date)}`,
      there: thereTime ? thereTime.format(date) : null,
    };
  });
}

type SchedulingPreviewProps<T extends FieldValues> = {
  inputs: PreviewInputs;
  /** The form, so the server's field errors show under the fields. */
  form: Pick<UseFormReturn<T>, 'setError' | 'clearErrors' | 'getFieldState'>;
};

/**
 * "Próximas execuções: …" as the user types: the next five runs from the server's preview call
 * (debounced), in the user's language and time zone, naming the zone.
 */
export function SchedulingPreview<T extends FieldValues>({
  inputs,
  form,
}: SchedulingPreviewProps<T>) {
  const t = useSchedulingsTranslation();
  const format = useFormat();
  const titleId = useId();
  const wanted = previewBodyOf(inputs);
  const [debounced] = useDebouncedValue(wanted, PREVIEW_DEBOUNCE_MS);
  const body = 'body' in debounced ? debounced.body : null;
  const query = useQuery({
    ...schedulingPreviewQueryOptions(body ?? { trigger_type: 'interval' }),
    enabled: body !== null,
  });
  const error = body ? query.error : null;

  // The server's word on the fields: under them while it holds, gone once the answer is good.
  useEffect(() => {
    for (const field of PREVIEW_FIELDS) {
      const name = field as FieldPath<T>;
      if (form.getFieldState(name).error?.type === 'preview') form.clearErrors(name);
    }
    if (isApiError(error) && error.status === 400) {
      for (const entry of error.errors) {
        if ((PREVIEW_FIELDS as readonly string[]).includes(entry.field)) {
          form.setError(entry.field as FieldPath<T> & PreviewField, {
            type: 'preview',
            message: entry.message,
          });
        }
      }
    }
  }, [error, form]);

  // A queue trigger has no times: the form says when its runs start instead.
  if ('reason' in wanted && wanted.reason === 'queue') return null;
  if ('reason' in wanted) {
    return (
      <Text size="sm" c="dimmed" role="status">
        {t(`preview.waiting.${wanted.reason}`)}
      </Text>
    );
  }

  const zone = browserTimeZone();
  const stale =
    'reason' in debounced || JSON.stringify(debounced.body) !== JSON.stringify(wanted.body);
  const loading = stale || query.isFetching;
  return (
    <Paper withBorder p="sm" radius="md" aria-live="polite" aria-busy={loading}>
      <Group gap={6} mb={6} wrap="nowrap" align="flex-start">
        <IconClock size={16} aria-hidden style={{ marginTop: 2, flex: 'none' }} />
        <Text size="sm" fw={600} id={titleId}>
          {t('preview.title', { zone })}
        </Text>
        {loading ? <Loader size={14} aria-label={t('preview.loading')} /> : null}
      </Group>
      {error ? (
        <Alert color="red" variant="light" p="xs">
          <Text size="sm">
            {isApiError(error) && error.status === 400 ? t('preview.invalid') : error.message}
          </Text>
        </Alert>
      ) : query.data && query.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('preview.none')}
        </Text>
      ) : query.data ? (
        <List size="sm" spacing={2} aria-labelledby={titleId}>
          {runLines(
            query.data,
            format.lang,
            inputs.trigger_type === 'cron' ? inputs.time_zone || null : null,
            format.dateTime,
          ).map((line) => (
            <List.Item key={line.iso}>
              <time dateTime={line.iso}>{line.text}</time>
              {line.there ? (
                <Text span size="xs" c="dimmed">
                  {' '}
                  {t('preview.there', { time: line.there, zone: inputs.time_zone })}
                </Text>
              ) : null}
            </List.Item>
          ))}
        </List>
      ) : null}
    </Paper>
  );
}
