import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Menu,
  Paper,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconChevronDown,
  IconFileText,
  IconInfoCircle,
  IconPaperclip,
  IconPlayerStop,
  IconRepeat,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { STOP_GRACE_DEFAULT_SECONDS, type ExecutionDetail } from '@rota/contract';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DateTimeText } from '../../../components/date-time';
import { DetailList } from '../../../components/detail-list';
import { LabelBadges } from '../../../components/labels-input';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { useFormat } from '../../../lib/format';
import { isApiError } from '../../../lib/http';
import { useDialog } from '../../../lib/use-dialog';
import { useCan } from '../../auth';
import { LiveIndicator } from '../../live';
import { useLiveStatus } from '../../live';
import { robotPath } from '../../robots';
import { ExecutionTasks } from '../../tasks';
import { useCancelExecution } from '../api/cancel-execution';
import { useFailExecution } from '../api/fail-execution';
import { useStopExecution } from '../api/stop-execution';
import { executionQueryOptions } from '../api/get-execution';
import { AttemptsTable } from '../components/attempts-table';
import { useExecutionDuration, useWaitingTime } from '../components/execution-duration';
import { ExecutionEvidence } from '../components/execution-evidence';
import { ExecutionLogsTab } from '../components/execution-logs-tab';
import { ExecutionStatusBadge, isFinalStatus } from '../components/execution-status';
import {
  ConnectionLostBadge,
  ExecutionProgress,
  StalledBadge,
} from '../components/execution-progress';
import { AttendedBadge } from '../components/attended-badge';
import { PendingReasonNote } from '../components/pending-reason';
import { RunMessage } from '../components/run-message';
import { useActivityTranslation } from '../i18n';
import { ACTIVITY_PATH, type ExecutionTab } from '../paths';

const TABS: readonly ExecutionTab[] = ['details', 'attempts', 'logs', 'evidence'];
/** Poll interval of a running execution while the live stream is down. */
const FALLBACK_POLL_MS = 10_000;

function BackLink() {
  const t = useActivityTranslation();
  return (
    <Anchor component={Link} to={ACTIVITY_PATH} size="sm" mb="xs" display="inline-flex">
      <Group gap={4} wrap="nowrap" component="span">
        <IconArrowLeft size={14} aria-hidden />
        {t('detail.back')}
      </Group>
    </Anchor>
  );
}

function Details({ execution }: { execution: ExecutionDetail }) {
  const t = useActivityTranslation();
  const can = useCan();
  const format = useFormat();
  const duration = useExecutionDuration();
  const waitingTime = useWaitingTime();
  // Agent, start and "running for" are the current attempt's; a retry back in the queue has
  // none of them and waits since its last attempt ended.
  const queued = execution.status === 'queued';
  const running = execution.status === 'processing' && execution.end_date === null;
  const currentStart = queued ? null : (execution.attempt_start_date ?? execution.start_date);
  const lastEnd = execution.attempt_list.at(-1)?.end_date ?? null;
  const elapsed = queued
    ? t('detail.waitingFor', { duration: waitingTime(lastEnd ?? execution.queued_at) })
    : duration(execution);
  const queueTime =
    execution.queued_seconds !== undefined && !queued && execution.start_date !== null
      ? format.duration(execution.queued_seconds * 1000)
      : null;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} fz="h4" mb="md">
        {t('detail.details')}
      </Title>
      <DetailList
        items={[
          {
            label: t('detail.fields.robot'),
            value: can('ROBOS.LIST') ? (
              <Anchor component={Link} to={robotPath(execution.rota_robots_id)} size="sm">
                {execution.rota_robots_name}
              </Anchor>
            ) : (
              execution.rota_robots_name
            ),
          },
          {
            label: t('detail.fields.status'),
            value: (
              <Group gap="xs" component="span">
                <ExecutionStatusBadge status={execution.status} />
                {execution.cancel_requested && !isFinalStatus(execution.status) ? (
                  <Badge variant="outline" color="orange" radius="sm" tt="none">
                    {t('detail.cancelRequested')}
                  </Badge>
                ) : null}
              </Group>
            ),
          },
          ...(execution.status === 'processing'
            ? [
                {
                  label: t('progress.title'),
                  value: <ExecutionProgress execution={execution} />,
                  wide: true,
                },
              ]
            : []),
          ...(execution.status === 'queued' && execution.pending_reason
            ? [
                {
                  label: t('detail.fields.pendingReason'),
                  value: <PendingReasonNote execution={execution} />,
                  wide: true,
                },
              ]
            : []),
          {
            label: t('detail.fields.scheduling'),
            value: execution.rota_schedulings_name ?? t('detail.noScheduling'),
          },
          { label: t('detail.fields.trigger'), value: t(`trigger.${execution.trigger}`) },
          { label: t('detail.fields.vm'), value: execution.rota_vms_name ?? t('detail.anyVm') },
          {
            label: t('detail.fields.labels'),
            value: execution.labels.length > 0 ? <LabelBadges labels={execution.labels} /> : null,
          },
          { label: t('detail.fields.agent'), value: queued ? null : execution.rota_executor_name },
          {
            label: t('detail.fields.version'),
            value: execution.version ? (
              <Badge variant="outline" radius="sm" tt="none">
                {execution.version}
              </Badge>
            ) : null,
          },
          { label: t('detail.fields.priority'), value: format.number(execution.priority) },
          {
            label: t('detail.fields.timeout'),
            value: format.duration(execution.timeout_minutes * 60_000),
          },
          { label: t('detail.fields.retries'), value: format.number(execution.retries) },
          {
            label: t('detail.fields.attempts'),
            value: t('detail.attemptsOf', {
              count: format.number(execution.attempts),
              max: format.number(execution.retries + 1),
            }),
          },
          {
            label: t('detail.fields.queued'),
            value: <DateTimeText value={execution.queued_at} />,
          },
          { label: t('detail.fields.start'), value: <DateTimeText value={currentStart} /> },
          { label: t('detail.fields.end'), value: <DateTimeText value={execution.end_date} /> },
          {
            label: t('detail.fields.duration'),
            value: running && elapsed ? t('detail.runningFor', { duration: elapsed }) : elapsed,
          },
          { label: t('detail.fields.queueTime'), value: queueTime },
          {
            label: t('detail.fields.exitCode'),
            value: execution.exit_code !== null ? <Code>{execution.exit_code}</Code> : null,
          },
          {
            label: t('detail.fields.message'),
            value: execution.message ? (
              <span style={{ whiteSpace: 'pre-wrap' }}>
                <RunMessage
                  text={execution.message}
                  code={execution.message_code}
                  params={execution.message_params}
                />
              </span>
            ) : null,
            wide: true,
          },
        ]}
      />
    </Paper>
  );
}

/**
 * `/activity/:id`: one execution, with its details, its attempts and its log tailing live; while
 * it is queued or running, HISTORIC.UPDATE may stop it gracefully or kill it now, and mark a
 * running one whose agent is gone as failed (each after a confirmation naming it).
 */
export default function ExecutionPage() {
  const t = useActivityTranslation();
  const { t: tc } = useTranslation();
  const can = useCan();
  const { id } = useParams();
  const executionId = Number(id);
  const validId = Number.isInteger(executionId) && executionId > 0;
  const live = useLiveStatus();
  const execution = useQuery({
    ...executionQueryOptions(validId ? executionId : 0),
    enabled: validId,
    // Live events refresh it; without them, a run still going is asked again now and then.
    refetchInterval: (query) => {
      const data = query.state.data;
      return data && !isFinalStatus(data.status) && live !== 'open' ? FALLBACK_POLL_MS : false;
    },
  });
  const [params, setParams] = useSearchParams();
  const cancel = useDialog<ExecutionDetail>();
  const cancelExecution = useCancelExecution();
  const stop = useDialog<ExecutionDetail>();
  const stopExecution = useStopExecution();
  const fail = useDialog<ExecutionDetail>();
  const failExecution = useFailExecution();

  const requested = params.get('tab') as ExecutionTab | null;
  const tab: ExecutionTab = requested && TABS.includes(requested) ? requested : 'details';
  const setTab = (next: ExecutionTab) =>
    setParams(
      () => {
        const search = new URLSearchParams();
        if (next !== 'details') search.set('tab', next);
        return search;
      },
      { preventScrollReset: true },
    );

  if (
    !validId ||
    (execution.isError && isApiError(execution.error) && execution.error.status === 404)
  ) {
    return (
      <>
        <BackLink />
        <Alert color="orange" variant="light" title={t('detail.notFoundTitle')}>
          {t('detail.notFound')}
        </Alert>
      </>
    );
  }
  if (execution.isError) {
    return (
      <>
        <BackLink />
        <Alert color="red" variant="light" title={t('detail.loadErrorTitle')}>
          <Text size="sm">{execution.error.message}</Text>
          <Button
            size="xs"
            variant="light"
            color="red"
            mt="sm"
            onClick={() => void execution.refetch()}
          >
            {tc('app.retry')}
          </Button>
        </Alert>
      </>
    );
  }
  if (execution.isPending) return <PageSkeleton />;

  const data = execution.data;
  const cancellable = can('HISTORIC.UPDATE') && !isFinalStatus(data.status);
  const failable = can('HISTORIC.UPDATE') && data.status === 'processing';
  return (
    <>
      <BackLink />
      <PageHeader
        title={t('detail.title', { id: data.execution_id })}
        subtitle={`${data.rota_robots_name} · ${t(`trigger.${data.trigger}`)}`}
        actions={
          <>
            <ExecutionStatusBadge status={data.status} size="lg" />
            <AttendedBadge execution={data} size="lg" />
            <StalledBadge execution={data} />
            <ConnectionLostBadge execution={data} />
            <LiveIndicator />
            {cancellable ? (
              <Menu position="bottom-end">
                <Menu.Target>
                  <Button
                    variant="light"
                    color="red"
                    leftSection={<IconPlayerStop size={16} aria-hidden />}
                    rightSection={<IconChevronDown size={14} aria-hidden />}
                  >
                    {t('cancel.action')}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item disabled={data.cancel_requested} onClick={() => stop.open(data)}>
                    {t('stop.action', { seconds: STOP_GRACE_DEFAULT_SECONDS })}
                  </Menu.Item>
                  <Menu.Item color="red" onClick={() => cancel.open(data)}>
                    {t('cancel.killNow')}
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            ) : null}
            {failable ? (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconAlertTriangle size={16} aria-hidden />}
                onClick={() => fail.open(data)}
              >
                {t('fail.action')}
              </Button>
            ) : null}
          </>
        }
      />
      <Tabs
        value={tab}
        onChange={(value) => value && setTab(value as ExecutionTab)}
        keepMounted={false}
      >
        <Tabs.List mb="lg" aria-label={t('detail.tabs.label')}>
          <Tabs.Tab value="details" leftSection={<IconInfoCircle size={16} aria-hidden />}>
            {t('detail.tabs.details')}
          </Tabs.Tab>
          <Tabs.Tab
            value="attempts"
            leftSection={<IconRepeat size={16} aria-hidden />}
            rightSection={
              <Badge size="sm" variant="light" color="gray" radius="sm" aria-hidden>
                {data.attempt_list.length}
              </Badge>
            }
          >
            {t('detail.tabs.attempts')}
          </Tabs.Tab>
          <Tabs.Tab value="logs" leftSection={<IconFileText size={16} aria-hidden />}>
            {t('detail.tabs.logs')}
          </Tabs.Tab>
          <Tabs.Tab value="evidence" leftSection={<IconPaperclip size={16} aria-hidden />}>
            {t('detail.tabs.evidence')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="details">
          <Details execution={data} />
          <ExecutionTasks executionId={data.execution_id} />
        </Tabs.Panel>
        <Tabs.Panel value="attempts">
          <AttemptsTable attempts={data.attempt_list} />
        </Tabs.Panel>
        <Tabs.Panel value="logs">
          <ExecutionLogsTab execution={data} />
        </Tabs.Panel>
        <Tabs.Panel value="evidence">
          <ExecutionEvidence execution={data} />
        </Tabs.Panel>
      </Tabs>
      <ConfirmDialog
        opened={cancel.opened}
        onClose={cancel.close}
        title={t('cancel.title', {
          id: cancel.target?.execution_id ?? '',
          robot: cancel.target?.rota_robots_name ?? '',
        })}
        confirmLabel={t('cancel.confirm')}
        confirmColor="red"
        cancelLabel={t('cancel.keep')}
        onConfirm={() => cancel.target && cancelExecution.mutateAsync(cancel.target.execution_id)}
      >
        {t('cancel.description')}
      </ConfirmDialog>
      <ConfirmDialog
        opened={stop.opened}
        onClose={stop.close}
        title={t('stop.title', {
          id: stop.target?.execution_id ?? '',
          robot: stop.target?.rota_robots_name ?? '',
        })}
        confirmLabel={t('stop.confirm')}
        confirmColor="orange"
        cancelLabel={t('cancel.keep')}
        onConfirm={() => stop.target && stopExecution.mutateAsync(stop.target.execution_id)}
      >
        {t('stop.description', { seconds: STOP_GRACE_DEFAULT_SECONDS })}
      </ConfirmDialog>
      <ConfirmDialog
        opened={fail.opened}
        onClose={fail.close}
        title={t('fail.title', {
          id: fail.target?.execution_id ?? '',
          robot: fail.target?.rota_robots_name ?? '',
        })}
        confirmLabel={t('fail.confirm')}
        confirmColor="red"
        cancelLabel={t('cancel.keep')}
        onConfirm={() => fail.target && failExecution.mutateAsync(fail.target.execution_id)}
      >
        {t('fail.description')}
      </ConfirmDialog>
    </>
  );
}
