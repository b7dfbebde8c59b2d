import { Group, Stack, Table, Text } from '@mantine/core';
import type { ExecutionAttempt } from '@rota/contract';
import { DateTimeText } from '../../../components/date-time';
import { useFormat } from '../../../lib/format';
import { useActivityTranslation } from '../i18n';
import { useExecutionDuration } from './execution-duration';
import { ExecutionStatusBadge } from './execution-status';
import { RunMessage } from './run-message';

/** An execution's attempts, first to last: where each ran, how it ended and why. */
export function AttemptsTable({ attempts }: { attempts: readonly ExecutionAttempt[] }) {
  const t = useActivityTranslation();
  const format = useFormat();
  const duration = useExecutionDuration();
  if (attempts.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('attempts.empty')}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={720} type="native" pos="relative">
      <Table aria-label={t('attempts.label')} verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th ta="right">{t('attempts.attempt')}</Table.Th>
            <Table.Th>{t('attempts.agent')}</Table.Th>
            <Table.Th>{t('attempts.status')}</Table.Th>
            <Table.Th ta="right">{t('attempts.exitCode')}</Table.Th>
            <Table.Th>{t('attempts.start')}</Table.Th>
            <Table.Th>{t('attempts.end')}</Table.Th>
            <Table.Th ta="right">{t('attempts.duration')}</Table.Th>
            <Table.Th>{t('attempts.message')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {attempts.map((attempt) => {
            const elapsed =
              attempt.end_date !== null
                ? format.duration(
                    new Date(attempt.end_date).getTime() - new Date(attempt.start_date).getTime(),
                  )
                : duration({ duration_ms: null, start_date: attempt.start_date, end_date: null });
            return (
              <Table.Tr key={attempt.attempt}>
                <Table.Td ta="right">
                  <Text size="sm">{format.number(attempt.attempt)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{attempt.rota_executor_name ?? '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <ExecutionStatusBadge status={attempt.status} />
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" ff="monospace">
                    {attempt.exit_code ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <DateTimeText value={attempt.start_date} />
                </Table.Td>
                <Table.Td>
                  <DateTimeText value={attempt.end_date} />
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {elapsed || '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Stack gap={4}>
                    <Text size="sm" maw={360} style={{ whiteSpace: 'pre-wrap' }}>
                      <RunMessage
                        text={attempt.message}
                        code={attempt.message_code}
                        params={attempt.message_params}
                        fallback="—"
                      />
                    </Text>
                    {attempt.late_result && (
                      <Group gap={6} wrap="nowrap">
                        <Text size="xs" c="dimmed">
                          {t('attempts.lateResult')}
                        </Text>
                        <ExecutionStatusBadge status={attempt.late_result.status} />
                      </Group>
                    )}
                    {attempt.refused_calls > 0 && (
                      <Text size="xs" c="dimmed">
                        {t('attempts.refusedCalls', { count: attempt.refused_calls })}
                      </Text>
                    )}
                  </Stack>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
