import { useState } from 'react';
import { Avatar, Button, Group, Popover, Stack, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { MeResponse } from '@rota/contract';
import { useSignOut } from '../../auth';

/** SPEC §2: the user's name and avatar in a popover that offers to sign out. */
export function UserMenu({ user }: { user: MeResponse }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const { signOut, pending } = useSignOut();
  const fullName = `${user.name} ${user.last_name}`.trim();

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      withArrow
      shadow="md"
      width={240}
    >
      <Popover.Target>
        <UnstyledButton
          aria-label={t('shell.userMenu')}
          aria-haspopup="dialog"
          aria-expanded={opened}
          onClick={() => setOpened((value) => !value)}
          style={{ borderRadius: 'var(--mantine-radius-xl)' }}
        >
          <Group gap="xs" wrap="nowrap">
            <Avatar
              src={user.avatar}
              name={fullName}
              alt={fullName}
              color="initials"
              radius="xl"
              size={34}
            />
            <Text size="sm" fw={500} visibleFrom="md" truncate maw={180}>
              {fullName}
            </Text>
          </Group>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={4}>
          {/* The name is on the button already; the email tells which account this is. */}
          <Text size="xs" c="dimmed" truncate>
            {user.email}
          </Text>
          <Text size="sm" mt="xs">
            {t('shell.signOutQuestion')}
          </Text>
          <Group justify="flex-end" mt="xs">
            <Button size="xs" color="red" loading={pending} onClick={() => void signOut()}>
              {t('shell.signOutConfirm')}
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
