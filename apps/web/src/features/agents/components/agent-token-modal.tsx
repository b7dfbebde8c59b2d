import { Alert, Button, Code, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CopyIcon } from '../../../components/copy-icon';
import { MONOSPACE_INPUT } from '../../../components/monospace-input';
import { useAgentsTranslation } from '../i18n';

/**
 * The command that starts an agent on its VM, pointed at this console's server. The token goes
 * in the environment, not in `--token`: npm prints the command line it runs.
 */
export function agentStartCommand(token: string, origin: string = window.location.origin): string {
  return `ROTA_AGENT_TOKEN=${token} npm run agent -- --server ${origin}`;
}

export type RevealedToken = { name: string; token: string };

type AgentTokenModalProps = {
  opened: boolean;
  onClose: () => void;
  /** Cleared by the page once the modal has slid out, so the token leaves memory. */
  onExited: () => void;
  revealed: RevealedToken | null;
  /** "Download and install the agent": the download dialog, given this token. */
  onInstall?: () => void;
};

/**
 * A new agent's (or a rotated) token, shown this one time: the server keeps only its hash. A click
 * outside does not close it, so the token is not lost by accident.
 */
export function AgentTokenModal({
  opened,
  onClose,
  onExited,
  revealed,
  onInstall,
}: AgentTokenModalProps) {
  const t = useAgentsTranslation();
  const { t: tc } = useTranslation();
  const token = revealed?.token ?? '';
  const command = agentStartCommand(token);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={onExited}
      title={t('token.title', { name: revealed?.name ?? '' })}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': tc('common.actions.close') }}
      centered
      size="lg"
    >
      <Stack gap="md">
        <Alert
          color="yellow"
          variant="light"
          icon={<IconAlertTriangle size={18} aria-hidden />}
          title={t('token.warningTitle')}
        >
          {t('token.warning')}
        </Alert>
        <TextInput
          label={t('token.label')}
          value={token}
          readOnly
          styles={MONOSPACE_INPUT}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
          rightSection={
            <CopyIcon value={token} label={t('token.copy')} copied={t('token.copied')} />
          }
          rightSectionPointerEvents="all"
        />
        <Stack gap={4}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" fw={500}>
              {t('token.command')}
            </Text>
            <CopyIcon value={command} label={t('token.copyCommand')} copied={t('token.copied')} />
          </Group>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {command}
          </Code>
          <Text size="xs" c="dimmed">
            {t('token.commandHint')}
          </Text>
        </Stack>
        <Group justify="flex-end">
          {onInstall ? (
            <Button
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={onInstall}
            >
              {t('token.install')}
            </Button>
          ) : null}
          <Button onClick={onClose} data-autofocus>
            {t('token.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
