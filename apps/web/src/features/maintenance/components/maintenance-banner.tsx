import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { MaintenanceWindow } from '@rota/contract';
import { formatDateTime } from '../../../lib/format';
import '../i18n';

type MaintenanceBannerProps = {
  windows: readonly MaintenanceWindow[];
  /** Whether the caller may end this window (the server checks it again). */
  canEnd?: (window: MaintenanceWindow) => boolean;
  onEnd?: (window: MaintenanceWindow) => void;
  ending?: boolean;
};

/** One notice per active window: what is in maintenance, who started it, since when and why. */
export function MaintenanceBanner({ windows, canEnd, onEnd, ending }: MaintenanceBannerProps) {
  const { t, i18n } = useTranslation('maintenance');
  if (windows.length === 0) return null;
  const lang = i18n.language === 'en' ? 'en' : 'pt';
  return (
    <Stack gap="xs" mb="md">
      {windows.map((window) => (
        <Alert
          key={window.rota_maintenance_windows_id}
          // A notice, not an error: read politely, named by its title.
          role="status"
          color="orange"
          variant="light"
          icon={<IconTool size={18} aria-hidden />}
          title={
            window.scope === 'cluster'
              ? t('banner.cluster')
              : t('banner.vm', { vm: window.vm_name ?? window.rota_vms_id })
          }
        >
          <Group justify="space-between" align="flex-end" gap="xs">
            <Stack gap={2} style={{ minWidth: 0, flex: '1 1 16rem' }}>
              <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {window.message}
              </Text>
              <Text size="sm">
                {t('banner.since', {
                  who: window.started_by,
                  when: formatDateTime(window.started_at, lang),
                })}
              </Text>
              <Text size="sm" c="dimmed">
                {t(`banner.mode.${window.mode}`)}
                {window.skipped.length > 0
                  ? ` ${t('banner.skipped', { count: window.skipped.length })}.`
                  : ''}
              </Text>
            </Stack>
            {onEnd && canEnd?.(window) ? (
              <Button
                size="xs"
                variant="white"
                color="orange"
                loading={ending}
                onClick={() => onEnd(window)}
              >
                {t('banner.end')}
              </Button>
            ) : null}
          </Group>
        </Alert>
      ))}
    </Stack>
  );
}
