import { Alert, Button, CopyButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { saveBlob } from '../../../lib/download';
import { useMfaTranslation } from '../i18n';

/** The codes as a file: one a line, so they can be printed or kept in a password manager. */
export function recoveryCodesText(codes: readonly string[]): string {
  return `${codes.join('\n')}\n`;
}

/**
 * The 10 recovery codes, shown this one time (the server keeps them hashed): copy, download as
 * .txt, and "I saved them" to move on.
 */
export function RecoveryCodesPanel({
  codes,
  onDone,
  doneLabel,
}: {
  codes: readonly string[];
  onDone: () => void;
  doneLabel?: string;
}) {
  const t = useMfaTranslation();
  const text = recoveryCodesText(codes);
  return (
    <Stack gap="md">
      <Alert
        color="yellow"
        variant="light"
        icon={<IconAlertTriangle size={18} aria-hidden />}
        title={t('codes.title')}
      >
        {t('codes.warning')}
      </Alert>
      <SimpleGrid
        cols={2}
        spacing="xs"
        component="ul"
        aria-label={t('codes.listLabel')}
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {codes.map((code) => (
          <Text component="li" key={code} ff="monospace" size="sm" ta="center">
            {code}
          </Text>
        ))}
      </SimpleGrid>
      <Group gap="sm">
        <CopyButton value={text} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              leftSection={
                copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />
              }
              onClick={copy}
            >
              {copied ? t('codes.copied') : t('codes.copy')}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() =>
            saveBlob(new Blob([text], { type: 'text/plain' }), 'rota-recovery-codes.txt')
          }
        >
          {t('codes.download')}
        </Button>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onDone}>{doneLabel ?? t('codes.saved')}</Button>
      </Group>
    </Stack>
  );
}
