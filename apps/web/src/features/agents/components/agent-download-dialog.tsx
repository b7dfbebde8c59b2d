import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Code,
  Group,
  Loader,
  Modal,
  SegmentedControl,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { IconAlertTriangle, IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AgentPlatform } from '@rota/contract';
import { CopyIcon } from '../../../components/copy-icon';
import { errorText } from '../../../lib/http';
import { useFormat } from '../../../lib/format';
import { agentDownloadIndexQueryOptions, useDownloadAgent } from '../api/agent-download';
import { useAgentsTranslation } from '../i18n';
import { installSteps, TOKEN_FILE } from '../install-commands';

type AgentDownloadDialogProps = {
  opened: boolean;
  onClose: () => void;
  /** The token of an agent just created or given a new one, where it is shown once. */
  token?: string;
  /** That agent's name, for the title. */
  agentName?: string;
  /** The server the commands point at; the console's own origin unless a test says. */
  origin?: string;
};

/**
 * "Download agent": the packaged executable of a platform (version, size, SHA-256), and the
 * commands that install it as a service on that platform, pointed at this server. Given a token
 * (from the once-only token modal), the commands write it to the token file; otherwise they hold
 * a placeholder, for the token was shown once and is never fetched again.
 */
export function AgentDownloadDialog({
  opened,
  onClose,
  token,
  agentName,
  origin = window.location.origin,
}: AgentDownloadDialogProps) {
  const t = useAgentsTranslation();
  const { t: tc } = useTranslation();
  const format = useFormat();
  const [platform, setPlatform] = useState<AgentPlatform>('linux-x64');
  const [desktop, setDesktop] = useState(false);
  const index = useQuery({ ...agentDownloadIndexQueryOptions(), enabled: opened });
  const download = useDownloadAgent();
  const entry = index.data?.platforms.find((p) => p.platform === platform);
  const steps = installSteps(platform, {
    origin,
    token,
    desktop: platform === 'win-x64' && desktop,
  });
  const stepTitle = {
    token: token
      ? t(`download.steps.token.${platform}`)
      : t(`download.steps.tokenPlaceholder.${platform}`, { file: TOKEN_FILE[platform] }),
    install: t(`download.steps.install.${platform}`),
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={agentName ? t('download.titleFor', { name: agentName }) : t('download.title')}
      closeButtonProps={{ 'aria-label': tc('common.actions.close') }}
      centered
      size="xl"
    >
      <Stack gap="md">
        <SegmentedControl
          aria-label={t('download.platform')}
          value={platform}
          onChange={(value) => setPlatform(value as AgentPlatform)}
          data={[
            { value: 'linux-x64', label: t('download.platforms.linux-x64') },
            { value: 'win-x64', label: t('download.platforms.win-x64') },
          ]}
        />
        {index.isPending ? (
          <Group justify="center">
            <Loader size="sm" aria-label={t('download.loading')} />
          </Group>
        ) : index.isError ? (
          <Alert
            color="yellow"
            variant="light"
            icon={<IconAlertTriangle size={18} aria-hidden />}
            title={t('download.missingTitle')}
          >
            {errorText(index.error)}
          </Alert>
        ) : entry ? (
          <Stack gap="xs">
            <Table variant="vertical" layout="fixed" withTableBorder>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th w={120}>{t('download.version')}</Table.Th>
                  <Table.Td>
                    <Code>{index.data.version}</Code>
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t('download.size')}</Table.Th>
                  <Table.Td>{format.bytes(entry.bytes)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>SHA-256</Table.Th>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Code
                        data-testid="agent-download-sha256"
                        style={{ overflowWrap: 'anywhere' }}
                      >
                        {entry.sha256}
                      </Code>
                      <CopyIcon
                        value={entry.sha256}
                        label={t('download.copySha256')}
                        copied={t('token.copied')}
                      />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
            <Group>
              <Button
                leftSection={<IconDownload size={16} aria-hidden />}
                loading={download.isPending}
                onClick={() => download.mutate(entry)}
                // A phone's width is less than "Download rota-agent-win-x64.exe": wrap, not cut.
                h="auto"
                mih={36}
                styles={{ label: { whiteSpace: 'normal', overflowWrap: 'anywhere' } }}
              >
                {t('download.button', { file: entry.file })}
              </Button>
            </Group>
          </Stack>
        ) : (
          <Alert color="yellow" variant="light" title={t('download.missingTitle')}>
            {t('download.platformMissing')}
          </Alert>
        )}
        {platform === 'win-x64' ? (
          <Checkbox
            label={t('download.desktop')}
            description={t('download.desktopHint')}
            checked={desktop}
            onChange={(event) => setDesktop(event.currentTarget.checked)}
          />
        ) : null}
        {steps.map((step, at) => (
          <Stack gap={4} key={step.key}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" fw={500}>
                {at + 1}. {stepTitle[step.key]}
              </Text>
              <CopyIcon
                value={step.command}
                label={t(`download.copy.${step.key}`)}
                copied={t('token.copied')}
              />
            </Group>
            <Code
              block
              data-testid={`agent-install-${step.key}`}
              style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            >
              {step.command}
            </Code>
          </Stack>
        ))}
        <Text size="xs" c="dimmed">
          {t(`download.hint.${platform}`)}
        </Text>
      </Stack>
    </Modal>
  );
}
