import { useState } from 'react';
import {
  Avatar,
  Button,
  Divider,
  Group,
  NavLink,
  Popover,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconDevices, IconKey, IconShieldLock, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { MeResponse } from '@rota/contract';
import { ACCOUNT_PATH, useAccountTranslation } from '../../account';
import { API_KEYS_PATH } from '../../api-keys';
import { useSignOut } from '../../auth';
import { MFA_PATH } from '../../mfa';
import { SESSIONS_PATH } from '../../sessions';

/** The user's name and avatar in a popover that offers to sign out (and their API keys). */
export function UserMenu({ user }: { user: MeResponse }) {
  const { t } = useTranslation();
  const ta = useAccountTranslation();
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
          <NavLink
            component={Link}
            to={ACCOUNT_PATH}
            label={ta('menu')}
            leftSection={<IconUserCircle size={16} aria-hidden />}
            onClick={() => setOpened(false)}
            mt="xs"
            px={4}
          />
          <NavLink
            component={Link}
            to={API_KEYS_PATH}
            label={t('shell.apiKeys')}
            leftSection={<IconKey size={16} aria-hidden />}
            onClick={() => setOpened(false)}
            px={4}
          />
          <NavLink
            component={Link}
            to={MFA_PATH}
            label={t('shell.twoStep')}
            leftSection={<IconShieldLock size={16} aria-hidden />}
            onClick={() => setOpened(false)}
            px={4}
          />
          <NavLink
            component={Link}
            to={SESSIONS_PATH}
            label={t('shell.sessions')}
            leftSection={<IconDevices size={16} aria-hidden />}
            onClick={() => setOpened(false)}
            px={4}
          />
          <Divider />
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
