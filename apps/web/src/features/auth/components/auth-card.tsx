import type { ReactNode } from 'react';
import { Box, Center, Group, Paper, Text, Title } from '@mantine/core';
import { Brand } from '../../../components/brand';
import { ColorSchemeToggle } from '../../../components/color-scheme-toggle';
import { LanguageMenu } from '../../../components/language-menu';
import { VersionLabel } from '../../../components/version-label';

/** The bare layout of the login pages: no shell, a centred card. */
export function AuthCard({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group justify="flex-end" gap="xs" p="md">
        <ColorSchemeToggle />
        <LanguageMenu />
      </Group>
      <Center component="main" style={{ flex: 1 }} px="md" pb="xl">
        <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={420}>
          <Center mb="lg">
            <Brand size="xl" />
          </Center>
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
