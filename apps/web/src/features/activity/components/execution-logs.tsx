import { Fragment, memo, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconArrowBarToDown } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ExecutionDetail, ExecutionLogLine } from '@rota/contract';
import { useFormat } from '../../../lib/format';
import { useLiveStatus } from '../../live';
import { LOG_TAIL_LIMIT, executionLogsQueryOptions } from '../api/get-execution-logs';
import { useActivityTranslation } from '../i18n';
import { isFinalStatus } from './execution-status';
import { RunMessage } from './run-message';
import classes from './execution-logs.module.css';

/** Poll interval of a running execution's log while the live stream is down. */
const FALLBACK_POLL_MS = 5000;
/** Within this many pixels of the bottom, the view follows new lines. */
const FOLLOW_SLACK_PX = 24;

export const LogLine = memo(function LogLine({
  line,
  time,
}: {
  line: ExecutionLogLine;
  time: string;
}) {
  return (
    <div className={classes.line} data-stream={line.stream}>
      <span className={classes.time}>
        <time dateTime={line.at}>{time}</time>
      </span>
      <span className={classes.text}>
        {line.stream === 'system' ? (
          <RunMessage text={line.line} code={line.code} params={line.params} />
        ) : (
          line.line
        )}
      </span>
    </div>
  );
});

/** A log line's time of day (`14:03:07`), in the console's language. */
export function useLogTimeFormat(): Intl.DateTimeFormat {
  const { lang } = useFormat();
  return useMemo(
    () =>
      new Intl.DateTimeFormat(lang === 'pt' ? 'pt-BR' : 'en-US', {
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      }),
    [lang],
  );
}

/**
 * An execution's log, tailing: the lines so far, then the new ones as `log` events arrive (the
 * shell invalidates the tail, which fetches after its last seq). It follows the end unless the
 * user scrolled up; stderr lines are tinted, the agent's own (system) lines dimmed; attempts are
 * separated. At most LOG_TAIL_LIMIT lines are kept, so the page stays light on long runs.
 */
export function ExecutionLogs({ execution }: { execution: ExecutionDetail }) {
  const t = useActivityTranslation();
  const { t: tc } = useTranslation();
  const format = useFormat();
  const live = useLiveStatus();
  const active = !isFinalStatus(execution.status);
  const logs = useQuery({
    ...executionLogsQueryOptions(execution.execution_id),
    refetchInterval: active && live !== 'open' ? FALLBACK_POLL_MS : false,
  });
  const viewport = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);
  const lines = logs.data?.lines;
  const lastSeq = lines?.at(-1)?.seq;
  const timeFormat = useLogTimeFormat();

  useLayoutEffect(() => {
    const element = viewport.current;
    if (element && following) element.scrollTop = element.scrollHeight;
  }, [lastSeq, following]);

  function onScroll() {
    const element = viewport.current;
    if (!element) return;
    const atEnd =
      element.scrollHeight - element.scrollTop - element.clientHeight <= FOLLOW_SLACK_PX;
    if (atEnd !== following) setFollowing(atEnd);
  }

  if (logs.isPending) {
    return (
      <Stack gap={6} role="status" aria-busy="true" aria-label={tc('app.loading')}>
        {Array.from({ length: 6 }, (_, index) => (
          <Skeleton key={index} height={14} width={`${90 - index * 9}%`} radius="sm" />
        ))}
      </Stack>
    );
  }
  if (logs.isError && !logs.data) {
    return (
      <Alert color="red" variant="light" title={t('logs.loadError')}>
        <Text size="sm">{logs.error.message}</Text>
        <Button size="xs" variant="light" color="red" mt="sm" onClick={() => void logs.refetch()}>
          {tc('app.retry')}
        </Button>
      </Alert>
    );
  }

  const timeOf = (at: string) => {
    const date = new Date(at);
    return Number.isNaN(date.getTime()) ? '' : timeFormat.format(date);
  };
  const shown = lines ?? [];
  const multipleAttempts = execution.attempts > 1 || new Set(shown.map((l) => l.attempt)).size > 1;
  return (
    <Stack gap="xs">
      {logs.data?.truncated ? (
        <Text size="xs" c="dimmed">
          {t('logs.truncated', { count: format.number(LOG_TAIL_LIMIT) })}
        </Text>
      ) : null}
      <div
        ref={viewport}
        className={classes.viewport}
        role="log"
        // New lines are not read aloud one by one; the region can be scrolled and read at will.
        aria-live="off"
        aria-label={t('logs.label')}
        tabIndex={0}
        onScroll={onScroll}
      >
        {shown.length === 0 ? (
          <Text size="sm" c="dimmed" px="sm" ff="inherit">
            {active ? t('logs.empty') : t('logs.emptyFinal')}
          </Text>
        ) : (
          shown.map((line, index) => {
            const previous = shown[index - 1];
            const separator =
              multipleAttempts && (previous === undefined || previous.attempt !== line.attempt);
            return (
              <Fragment key={line.seq}>
                {separator ? (
                  <div className={classes.separator}>
                    {t('logs.attempt', { attempt: line.attempt })}
                  </div>
                ) : null}
                <LogLine line={line} time={timeOf(line.at)} />
              </Fragment>
            );
          })
        )}
      </div>
      {!following && shown.length > 0 ? (
        <Group justify="flex-end">
          <Button
            size="xs"
            variant="light"
            leftSection={<IconArrowBarToDown size={14} aria-hidden />}
            onClick={() => setFollowing(true)}
          >
            {t('logs.jumpToEnd')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
