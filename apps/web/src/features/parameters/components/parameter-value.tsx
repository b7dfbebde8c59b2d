import { Badge, Group, Text, VisuallyHidden } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { Parameter } from '@rota/contract';
import { useParametersTranslation } from '../i18n';

/** What stands for a password: the same eight dots whatever its length. */
export const MASK = '••••••••';

/** A parameter's value in the list; a password as the mask and a lock badge, never its text. */
export function ParameterValue({ parameter }: { parameter: Parameter }) {
  const t = useParametersTranslation();
  if (parameter.has_password) {
    return (
      <Group gap="xs" wrap="nowrap">
        <Text size="sm" ff="monospace" aria-hidden>
          {MASK}
        </Text>
        <VisuallyHidden>{t('masked')}</VisuallyHidden>
        <Badge
          variant="light"
          color="grape"
          radius="sm"
          tt="none"
          leftSection={<IconLock size={12} aria-hidden />}
        >
          {t('password')}
        </Badge>
      </Group>
    );
  }
  return (
    <Text
      size="sm"
      ff="monospace"
      lineClamp={1}
      maw={320}
      title={parameter.value ?? undefined}
      style={{ overflowWrap: 'anywhere' }}
    >
      {parameter.value ?? '—'}
    </Text>
  );
}
