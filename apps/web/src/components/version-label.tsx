import { Text, type TextProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { VERSION_LABEL } from '@rota/contract';

export function VersionLabel(props: TextProps) {
  const { t } = useTranslation();
  return (
    <Text size="xs" c="dimmed" {...props}>
      {t('app.version', { version: VERSION_LABEL })}
    </Text>
  );
}
