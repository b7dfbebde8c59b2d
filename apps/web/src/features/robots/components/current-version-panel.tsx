import {
  Alert,
  Button,
  Code,
  EmptyState,
  Group,
  Paper,
  Skeleton,
  Stack,
  Title,
} from '@mantine/core';
import { IconDownload, IconPackageOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Robot } from '@rota/contract';
import { DateTimeText } from '../../../components/date-time';
import { DetailList } from '../../../components/detail-list';
import { useFormat } from '../../../lib/format';
import { useDownloadRobotVersion } from '../api/download-robot-version';
import { robotVersionQueryOptions } from '../api/get-robot-version';
import '../i18n';

type CurrentVersionPanelProps = {
  robot: Robot;
  /** Switches to the Repository sub-tab. */
  onOpenRepository: () => void;
};

/** The Versions › Current sub-tab: what the agents run now, and its package. */
export function CurrentVersionPanel({ robot, onOpenRepository }: CurrentVersionPanelProps) {
  const { t } = useTranslation('robots');
  const { t: tc } = useTranslation();
  const format = useFormat();
  const currentId = robot.current_version?.rota_robot_versions_id;
  const version = useQuery({
    ...robotVersionQueryOptions(robot.rota_robots_id, currentId ?? 0),
    enabled: currentId !== undefined,
  });
  const download = useDownloadRobotVersion();

  if (!robot.current_version) {
    return (
      <EmptyState
        py="xl"
        icon={<IconPackageOff size={28} aria-hidden />}
        withIndicatorBackground
        title={t('versions.noCurrentTitle')}
        description={t('versions.noCurrentDescription')}
      >
        <EmptyState.Actions>
          <Button variant="default" onClick={onOpenRepository}>
            {t('versions.goToRepository')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    );
  }
  if (version.isPending) {
    return (
      <Stack gap="sm" role="status" aria-busy="true" aria-label={tc('app.loading')}>
        <Skeleton height={24} width="30%" />
        <Skeleton height={80} />
      </Stack>
    );
  }
  if (version.isError) {
    return (
      <Alert color="red" variant="light" title={t('versions.loadError')}>
        <Button
          size="xs"
          variant="light"
          color="red"
          mt="xs"
          onClick={() => void version.refetch()}
        >
          {tc('app.retry')}
        </Button>
      </Alert>
    );
  }
  const current = version.data;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Group justify="space-between" align="flex-start" mb="md" gap="sm">
        <Title order={3} fz="h4">
          {t('versions.version')} {current.version}
        </Title>
        <Button
          variant="light"
          leftSection={<IconDownload size={16} aria-hidden />}
          loading={download.isPending}
          onClick={() => download.mutate(current)}
        >
          {t('versions.download')}
        </Button>
      </Group>
      <DetailList
        items={[
          { label: t('versions.version'), value: current.version },
          { label: t('versions.uploadedAt'), value: <DateTimeText value={current.created_at} /> },
          { label: t('versions.fileName'), value: current.file_name },
          { label: t('versions.size'), value: format.bytes(current.size_bytes) },
          { label: t('versions.format'), value: current.format },
          {
            label: t('versions.sha256'),
            value: <Code style={{ overflowWrap: 'anywhere' }}>{current.sha256}</Code>,
            wide: true,
          },
          {
            label: t('versions.notes'),
            value: current.notes ? (
              <span style={{ whiteSpace: 'pre-wrap' }}>{current.notes}</span>
            ) : null,
            wide: true,
          },
        ]}
      />
    </Paper>
  );
}
