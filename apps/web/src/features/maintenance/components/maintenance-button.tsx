import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconTool } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { MaintenanceDrawer, type MaintenanceTargetOf } from './maintenance-drawer';
import '../i18n';

/**
 * Opens the start drawer: an icon in the header for the cluster (platform administrators), a
 * labelled button for one VM (AGENTES.UPDATE, on the VMs page).
 */
export function MaintenanceButton({ target }: { target: MaintenanceTargetOf }) {
  const { t } = useTranslation('maintenance');
  const [opened, { open, close }] = useDisclosure(false);
  const label = target.scope === 'cluster' ? t('open') : t('openVm', { vm: target.vmName });
  return (
    <>
      {target.scope === 'cluster' ? (
        <Tooltip label={label}>
          <ActionIcon variant="default" size="lg" aria-label={label} onClick={open}>
            <IconTool size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      ) : (
        <Button variant="default" leftSection={<IconTool size={16} aria-hidden />} onClick={open}>
          {label}
        </Button>
      )}
      {opened ? <MaintenanceDrawer opened={opened} onClose={close} target={target} /> : null}
    </>
  );
}
