import type { ReactNode } from 'react';
import { Box, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Brand } from '../../../components/brand';
import { ColorSchemeToggle } from '../../../components/color-scheme-toggle';
import { LanguageMenu } from '../../../components/language-menu';
import { VersionLabel } from '../../../components/version-label';

/** The bare layout of the login pages (SPEC §2): no shell, a centred card. */
export function AuthCard({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group justify="flex-end" gap="xs" p="md">
        <ColorSchemeToggle />
        <LanguageMenu />
      </Group>
      <Center component="main" style={{ flex: 1 }} px="md" pb="xl">
        <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={420}>
          <Stack gap={4} align="center" mb="lg">
            <Brand size="xl" />
            <Text size="sm" c="dimmed">
              {t('app.tagline')}
            </Text>
          </Stack>
          <Title order={1} fz="h3" mb={description ? 4 : 'md'}>
            {title}
          </Title>
          {description ? (
            <Text size="sm" c="dimmed" mb="md">
              {description}
            </Text>
          ) : null}
          {children}
        </Paper>
      </Center>
      <VersionLabel ta="center" pb="md" />
    </Box>
  );
}
