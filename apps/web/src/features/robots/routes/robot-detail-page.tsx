import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconArrowLeft,
  IconEdit,
  IconHistory,
  IconInfoCircle,
  IconListCheck,
  IconPlayerPlay,
  IconPlus,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { Robot, RobotField } from '@rota/contract';
import { BooleanBadge } from '../../../components/badges';
import { ConfirmDelete } from '../../../components/confirm-dialog';
import { DateTimeText } from '../../../components/date-time';
import { DetailList } from '../../../components/detail-list';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { isApiError } from '../../../lib/http';
import { useDialog } from '../../../lib/use-dialog';
import { LatestExecutions } from '../../activity';
import { useCan } from '../../auth';
import { TaskFormDrawer } from '../../tasks';
import { TasksTable } from '../../tasks';
import { tasksOfRobotPath } from '../../tasks';
import { RobotTriggers } from '../../triggers';
import { useDeleteRobot } from '../api/delete-robot';
import { robotQueryOptions } from '../api/get-robot';
import { CurrentVersionPanel } from '../components/current-version-panel';
import { RobotFieldFormDrawer } from '../components/robot-field-form-drawer';
import { RobotFieldsTable } from '../components/robot-fields-table';
import { RobotFormDrawer } from '../components/robot-form-drawer';
import { RobotVersionUploadDrawer } from '../components/robot-version-upload-drawer';
import { RobotVersionsTable } from '../components/robot-versions-table';
import { RunRobotDrawer } from '../components/run-robot-drawer';
import { ROBOTS_PATH, type RobotTab, type RobotVersionsTab } from '../paths';
import '../i18n';

const TABS: readonly RobotTab[] = ['overview', 'tasks', 'versions'];
const VERSION_TABS: readonly RobotVersionsTab[] = ['current', 'repository'];

function BackLink() {
  const { t } = useTranslation('robots');
  return (
    <Anchor component={Link} to={ROBOTS_PATH} size="sm" mb="xs" display="inline-flex">
      <Group gap={4} wrap="nowrap" component="span">
        <IconArrowLeft size={14} aria-hidden />
        {t('detail.back')}
      </Group>
    </Anchor>
  );
}

function Overview({ robot }: { robot: Robot }) {
  const { t } = useTranslation('robots');
  const can = useCan();
  const fieldDrawer = useDialog<RobotField | null>();
  const newField = can('ROBOS.CREATE') ? (
    <Button
      variant="light"
      leftSection={<IconPlus size={16} aria-hidden />}
      onClick={() => fieldDrawer.open(null)}
    >
      {t('fields.new')}
    </Button>
  ) : null;
  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Title order={2} fz="h4" mb="md">
          {t('detail.details')}
        </Title>
        <DetailList
          items={[
            { label: t('form.name'), value: robot.name },
            {
              label: t('columns.status'),
              value: (
                <BooleanBadge
                  value={robot.active}
                  trueLabel={t('status.active')}
                  falseLabel={t('status.inactive')}
                />
              ),
            },
            { label: t('form.executor'), value: <Code>{robot.executor}</Code>, wide: true },
            {
              label: t('form.remoteRoot'),
              value: robot.remote_root ? <Code>{robot.remote_root}</Code> : null,
            },
            {
              label: t('columns.currentVersion'),
              value: robot.current_version ? (
                <Badge variant="outline" radius="sm" tt="none">
                  {robot.current_version.version}
                </Badge>
              ) : (
                t('noVersion')
              ),
            },
            {
              label: t('form.taskSlaMinutes'),
              value:
                robot.task_sla_minutes !== null
                  ? t('detail.minutes', { count: robot.task_sla_minutes })
                  : null,
            },
            {
              label: t('form.taskRiskMinutes'),
              value:
                robot.task_risk_minutes !== null
                  ? t('detail.minutes', { count: robot.task_risk_minutes })
                  : null,
            },
            { label: t('form.taskRetries'), value: String(robot.task_retries) },
            {
              label: t('form.stallMinutes'),
              value:
                robot.stall_minutes !== null
                  ? `${t('detail.minutes', { count: robot.stall_minutes })} · ${t(`form.stallActions.${robot.stall_action}`)}`
                  : null,
            },
            { label: t('columns.created'), value: <DateTimeText value={robot.created_at} /> },
            { label: t('columns.updated'), value: <DateTimeText value={robot.updated_at} /> },
            {
              label: t('form.description'),
              value: robot.description ? (
                <span style={{ whiteSpace: 'pre-wrap' }}>{robot.description}</span>
              ) : null,
              wide: true,
            },
          ]}
        />
      </Paper>
      {can('HISTORIC.LIST') ? <LatestExecutions robotId={robot.rota_robots_id} /> : null}
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end" gap="sm">
          <div>
            <Title order={2} fz="h4">
              {t('detail.fields')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('detail.fieldsDescription')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('detail.fieldsRule')}
            </Text>
          </div>
          {newField}
        </Group>
        <RobotFieldsTable
          robotId={robot.rota_robots_id}
          prefix="fields_"
          createAction={newField}
          onEdit={(field) => fieldDrawer.open(field)}
        />
      </Stack>
      <RobotTriggers robot={robot} />
      <RobotFieldFormDrawer
        opened={fieldDrawer.opened}
        onClose={fieldDrawer.close}
        field={fieldDrawer.target}
        robotId={robot.rota_robots_id}
      />
    </Stack>
  );
}

function RobotTasks({ robot }: { robot: Robot }) {
  const { t } = useTranslation('tasks');
  const can = useCan();
  const [opened, { open, close }] = useDisclosure(false);
  const newTask = can('ATIVIDADES.CREATE') ? (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={open}>
      {t('list.new')}
    </Button>
  ) : null;
  if (!can('ATIVIDADES.LIST')) {
    return (
      <Alert color="gray" variant="light" icon={<IconInfoCircle aria-hidden />}>
        <DeniedText />
      </Alert>
    );
  }
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Anchor component={Link} to={tasksOfRobotPath(robot.rota_robots_id)} size="sm">
          {t('robotLink')}
        </Anchor>
        {newTask}
      </Group>
      <TasksTable robotId={robot.rota_robots_id} prefix="tasks_" createAction={newTask} />
      <TaskFormDrawer opened={opened} onClose={close} robotId={robot.rota_robots_id} />
    </Stack>
  );
}

function DeniedText() {
  const { t } = useTranslation();
  return (
    <>
      <Text fw={600} size="sm">
        {t('guard.deniedTitle')}
      </Text>
      <Text size="sm">{t('guard.deniedText')}</Text>
    </>
  );
}

function Versions({ robot }: { robot: Robot }) {
  const { t } = useTranslation('robots');
  const can = useCan();
  const [params, setParams] = useSearchParams();
  const [uploadOpened, upload] = useDisclosure(false);
  const requested = params.get('vtab') as RobotVersionsTab | null;
  const tab: RobotVersionsTab =
    requested && VERSION_TABS.includes(requested) ? requested : 'current';
  const setTab = (next: RobotVersionsTab) =>
    setParams(
      (previous) => {
        const search = new URLSearchParams(previous);
        if (next === 'current') search.delete('vtab');
        else search.set('vtab', next);
        return search;
      },
      { preventScrollReset: true },
    );
  const uploadButton = can('ROBOS.CREATE') ? (
    <Button leftSection={<IconUpload size={16} aria-hidden />} onClick={upload.open}>
      {t('versions.upload')}
    </Button>
  ) : null;
  return (
    <>
      <Tabs
        value={tab}
        onChange={(value) => value && setTab(value as RobotVersionsTab)}
        variant="pills"
        keepMounted={false}
      >
        <Group justify="space-between" gap="sm" mb="md">
          <Tabs.List aria-label={t('versions.tabsLabel')}>
            <Tabs.Tab value="current">{t('versions.current')}</Tabs.Tab>
            <Tabs.Tab value="repository">{t('versions.repository')}</Tabs.Tab>
          </Tabs.List>
          {tab === 'repository' ? uploadButton : null}
        </Group>
        <Tabs.Panel value="current">
          <CurrentVersionPanel robot={robot} onOpenRepository={() => setTab('repository')} />
        </Tabs.Panel>
        <Tabs.Panel value="repository">
          <RobotVersionsTable
            robotId={robot.rota_robots_id}
            prefix="versions_"
            uploadAction={uploadButton}
          />
        </Tabs.Panel>
      </Tabs>
      <RobotVersionUploadDrawer
        opened={uploadOpened}
        onClose={upload.close}
        robotId={robot.rota_robots_id}
      />
    </>
  );
}

/** `/robot/:id`: the robot's header with edit/delete, and its Overview, Tasks and Versions tabs. */
export default function RobotDetailPage() {
  const { t } = useTranslation('robots');
  const { t: tc } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const { id } = useParams();
  const robotId = Number(id);
  const validId = Number.isInteger(robotId) && robotId > 0;
  const robot = useQuery({ ...robotQueryOptions(validId ? robotId : 0), enabled: validId });
  const [params, setParams] = useSearchParams();
  const [editOpened, edit] = useDisclosure(false);
  const [deleteOpened, remove] = useDisclosure(false);
  const [runOpened, runNow] = useDisclosure(false);
  const deleteRobot = useDeleteRobot();

  const requested = params.get('tab') as RobotTab | null;
  const tab: RobotTab = requested && TABS.includes(requested) ? requested : 'overview';
  const setTab = (next: RobotTab) =>
    setParams(
      () => {
        // Each tab's lists keep their own (prefixed) state; a new tab starts from its defaults.
        const search = new URLSearchParams();
        if (next !== 'overview') search.set('tab', next);
        return search;
      },
      { preventScrollReset: true },
    );

  if (!validId || (robot.isError && isApiError(robot.error) && robot.error.status === 404)) {
    return (
      <>
        <BackLink />
        <Alert color="orange" variant="light" title={t('detail.notFoundTitle')}>
          {t('detail.notFound')}
        </Alert>
      </>
    );
  }
  if (robot.isError) {
    return (
      <>
        <BackLink />
        <Alert color="red" variant="light" title={t('detail.loadErrorTitle')}>
          <Text size="sm">{robot.error.message}</Text>
          <Button
            size="xs"
            variant="light"
            color="red"
            mt="sm"
            onClick={() => void robot.refetch()}
          >
            {tc('app.retry')}
          </Button>
        </Alert>
      </>
    );
  }
  if (robot.isPending) return <PageSkeleton />;

  const data = robot.data;
  return (
    <>
      <BackLink />
      <PageHeader
        title={data.name}
        subtitle={data.description || t('detail.subtitle', { executor: data.executor })}
        actions={
          <>
            {can('ROBOS.UPDATE') ? (
              <Button leftSection={<IconPlayerPlay size={16} aria-hidden />} onClick={runNow.open}>
                {t('run.action')}
              </Button>
            ) : null}
            {can('ROBOS.UPDATE') ? (
              <Button
                variant="default"
                leftSection={<IconEdit size={16} aria-hidden />}
                onClick={edit.open}
              >
                {tc('common.actions.edit')}
              </Button>
            ) : null}
            {can('ROBOS.DELETE') ? (
              <Button
                variant="light"
                color="red"
                leftSection={<IconTrash size={16} aria-hidden />}
                onClick={remove.open}
              >
                {tc('common.actions.delete')}
              </Button>
            ) : null}
          </>
        }
      />
      <Tabs
        value={tab}
        onChange={(value) => value && setTab(value as RobotTab)}
        keepMounted={false}
      >
        <Tabs.List mb="lg">
          <Tabs.Tab value="overview" leftSection={<IconInfoCircle size={16} aria-hidden />}>
            {t('detail.tabs.overview')}
          </Tabs.Tab>
          <Tabs.Tab value="tasks" leftSection={<IconListCheck size={16} aria-hidden />}>
            {t('detail.tabs.tasks')}
          </Tabs.Tab>
          <Tabs.Tab value="versions" leftSection={<IconHistory size={16} aria-hidden />}>
            {t('detail.tabs.versions')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview">
          <Overview robot={data} />
        </Tabs.Panel>
        <Tabs.Panel value="tasks">
          <RobotTasks robot={data} />
        </Tabs.Panel>
        <Tabs.Panel value="versions">
          <Versions robot={data} />
        </Tabs.Panel>
      </Tabs>
      <RobotFormDrawer opened={editOpened} onClose={edit.close} robot={data} />
      <RunRobotDrawer opened={runOpened} onClose={runNow.close} robot={data} />
      <ConfirmDelete
        opened={deleteOpened}
        onClose={remove.close}
        title={t('delete.title', { name: data.name })}
        description={t('delete.description')}
        onConfirm={async () => {
          await deleteRobot.mutateAsync(data.rota_robots_id);
          void navigate(ROBOTS_PATH, { replace: true });
        }}
      />
    </>
  );
}
