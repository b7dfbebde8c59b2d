import { useState } from 'react';
import { Alert, Button, Group, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ExecutionDetail } from '@rota/contract';
import { useFormat } from '../../../lib/format';
import { useDownloadExecutionLogs } from '../api/download-execution-logs';
import { LOG_SEARCH_LIMIT, executionLogSearchQueryOptions } from '../api/get-execution-logs';
import { useActivityTranslation } from '../i18n';
import { ExecutionLogs, LogLine, useLogTimeFormat } from './execution-logs';
import classes from './execution-logs.module.css';

const SEARCH_DEBOUNCE_MS = 300;

/** The lines holding `search`, newest matches last (the server filters: the whole log). */
function LogSearchResults({ executionId, search }: { executionId: number; search: string }) {
  const t = useActivityTranslation();
  const format = useFormat();
  const results = useQuery(executionLogSearchQueryOptions(executionId, search));
  const timeFormat = useLogTimeFormat();
  if (results.isPending) return <Skeleton height={80} radius="sm" />;
  if (results.isError) {
    return (
      <Alert color="red" variant="light" title={t('logs.loadError')}>
        <Text size="sm">{results.error.message}</Text>
      </Alert>
    );
  }
  return (
    <Stack gap="xs">
      <Text size="xs" c="dimmed">
        {t('logs.matches', { search, count: format.number(LOG_SEARCH_LIMIT) })}
      </Text>
      <div className={classes.viewport} role="log" aria-label={t('logs.search')} tabIndex={0}>
        {results.data.length === 0 ? (
          <Text size="sm" c="dimmed" px="sm" ff="inherit">
            {t('logs.noMatches')}
          </Text>
        ) : (
          results.data.map((line) => (
            <LogLine key={line.seq} line={line} time={timeFormat.format(new Date(line.at))} />
          ))
        )}
      </div>
    </Stack>
  );
}

/** The logs tab: a search over the whole log, its download, and the live tail. */
export function ExecutionLogsTab({ execution }: { execution: ExecutionDetail }) {
  const t = useActivityTranslation();
  const [typed, setTyped] = useState('');
  const [search] = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS);
  const download = useDownloadExecutionLogs();
  return (
    <Stack gap="sm">
      <Group gap="xs" wrap="wrap" align="flex-end">
        <TextInput
          style={{ flex: '1 1 200px' }}
          aria-label={t('logs.search')}
          placeholder={t('logs.searchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={typed}
          maxLength={200}
          onChange={(event) => setTyped(event.currentTarget.value)}
        />
        <Button
          variant="light"
          leftSection={<IconDownload size={16} aria-hidden />}
          loading={download.isPending}
          onClick={() => download.mutate(execution.execution_id)}
        >
          {t('logs.download')}
        </Button>
      </Group>
      {search ? (
        <LogSearchResults executionId={execution.execution_id} search={search} />
      ) : (
        <ExecutionLogs execution={execution} />
      )}
    </Stack>
  );
}
