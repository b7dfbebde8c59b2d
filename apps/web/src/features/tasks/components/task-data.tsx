import { Code, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RobotField, Task } from '@rota/contract';
import { DateTimeText } from '../../../components/date-time';
import { DetailList, type DetailItem } from '../../../components/detail-list';
import { useFormat } from '../../../lib/format';
import { robotFieldsOfRobotQueryOptions } from '../../robots';
import '../i18n';

function DataValue({ value, type }: { value: unknown; type: RobotField['type'] | undefined }) {
  const { t } = useTranslation('tasks');
  const format = useFormat();
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'boolean') return <>{value ? t('detail.yes') : t('detail.no')}</>;
  if (typeof value === 'number') return <>{format.number(value)}</>;
  if (type === 'date' && typeof value === 'string') {
    // A bare day stays a day; a date-time is shown in the user's time zone.
    return /^\d{4}-\d{2}-\d{2}$/.test(value) ? (
      <DateTimeText value={`${value}T12:00:00`} mode="date" />
    ) : (
      <DateTimeText value={value} />
    );
  }
  if (typeof value === 'string') return <>{value}</>;
  return (
    <Code block style={{ whiteSpace: 'pre-wrap' }}>
      {JSON.stringify(value, null, 2)}
    </Code>
  );
}

/**
 * A task's `data` as its robot's fields label it, in the fields' order; keys the robot has no
 * field for (any more) are shown under their raw name, after the fields.
 */
export function TaskData({ task }: { task: Task }) {
  const { t } = useTranslation('tasks');
  const fields = useQuery(robotFieldsOfRobotQueryOptions(task.rota_robots_id));
  const known = fields.data ?? [];
  const names = new Set(known.map((f) => f.name));
  const items: DetailItem[] = [];
  for (const field of known) {
    if (!(field.name in task.data)) continue;
    items.push({
      label: field.label,
      value: <DataValue value={task.data[field.name]} type={field.type} />,
      wide: field.type === 'json',
    });
  }
  for (const [key, value] of Object.entries(task.data)) {
    if (names.has(key)) continue;
    const rendered: ReactNode = <DataValue value={value} type={undefined} />;
    items.push({
      label: key,
      value: (
        <span title={t('detail.unknownField')} data-raw-key={key}>
          {rendered}
        </span>
      ),
      wide: typeof value === 'object' && value !== null,
    });
  }
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} fz="h4" mb="md">
        {t('detail.data')}
      </Title>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('detail.noData')}
        </Text>
      ) : (
        <Stack gap="md">
          <DetailList items={items} />
        </Stack>
      )}
    </Paper>
  );
}
