import { Alert, Button, Code, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CopyIcon } from '../../../components/copy-icon';
import { MONOSPACE_INPUT } from '../../../components/monospace-input';
import { useApiKeysTranslation } from '../i18n';

type OneTimeSecretModalProps = {
  opened: boolean;
  onClose: () => void;
  /** Called once the modal has slid out: the page drops the secret so it leaves memory. */
  onExited: () => void;
  title: string;
  /** What the secret is ("API key", "Token"), the input's label. */
  label: string;
  secret: string;
  /** Why it must be copied now and what to do if it is lost (a key is revoked, a token rotated). */
  warning: string;
  /** A ready-to-run example that uses the secret. */
  example: string;
  exampleHint?: string;
};

/**
 * A secret the server keeps only hashed (an API key, a trigger token), shown this one time with
 * copy buttons and an example call. A click outside does not close it, so it is not lost by accident.
 */
export function OneTimeSecretModal({
  opened,
  onClose,
  onExited,
  title,
  label,
  secret,
  warning,
  example,
  exampleHint,
}: OneTimeSecretModalProps) {
  const t = useApiKeysTranslation();
  const { t: tc } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={onExited}
      title={title}
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
          title={t('secret.warningTitle')}
        >
          {warning}
        </Alert>
        <TextInput
          label={label}
          value={secret}
          readOnly
          styles={MONOSPACE_INPUT}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
          rightSection={
            <CopyIcon
              value={secret}
              label={t('secret.copy', { label })}
              copied={t('secret.copied')}
            />
          }
          rightSectionPointerEvents="all"
        />
        <Stack gap={4}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" fw={500}>
              {t('secret.example')}
            </Text>
            <CopyIcon value={example} label={t('secret.copyExample')} copied={t('secret.copied')} />
          </Group>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {example}
          </Code>
          {exampleHint ? (
            <Text size="xs" c="dimmed">
              {exampleHint}
            </Text>
          ) : null}
        </Stack>
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            {t('secret.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
