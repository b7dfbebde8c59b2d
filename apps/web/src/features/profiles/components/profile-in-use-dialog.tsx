import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Profile } from '@rota/contract';
import '../i18n';

type ProfileInUseDialogProps = {
  opened: boolean;
  onClose: () => void;
  profile: Profile | null;
  /** Opens the users holding the profile, to give them another one. */
  onShowUsers: (profile: Profile) => void;
};

/** Why a profile held by users cannot be deleted, and the way out. */
export function ProfileInUseDialog({
  opened,
  onClose,
  profile,
  onShowUsers,
}: ProfileInUseDialogProps) {
  const { t } = useTranslation('profiles');
  const { t: tc } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('inUse.title', { name: profile?.name ?? '' })}
      centered
      size="md"
    >
      <Stack gap="md">
        <Text size="sm">{t('inUse.description', { count: profile?.users ?? 0 })}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {tc('common.actions.close')}
          </Button>
          {profile ? (
            <Button
              data-autofocus
              onClick={() => {
                onClose();
                onShowUsers(profile);
              }}
            >
              {t('inUse.showUsers')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Modal>
  );
}
