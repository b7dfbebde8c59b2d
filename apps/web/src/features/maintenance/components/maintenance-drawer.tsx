import { SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  MAINTENANCE_MODES,
  maintenanceStartSchema,
  type MaintenanceMode,
  type MaintenanceStart,
} from '@rota/contract';
import { FormDrawer } from '../../../components/form-drawer';
import { fieldError } from '../../../lib/form-errors';
import { useStartMaintenance } from '../api/change-maintenance';
import '../i18n';

/** What a window covers: the whole cluster, or one VM of the selected client. */
export type MaintenanceTargetOf =
  { scope: 'cluster' } | { scope: 'vm'; vmId: number; vmName: string };

type MaintenanceDrawerProps = {
  opened: boolean;
  onClose: () => void;
  target: MaintenanceTargetOf;
};

type Inputs = {
  scope: 'cluster' | 'vm';
  rota_vms_id?: number;
  mode: MaintenanceMode;
  message: string;
};

/** Starts a window: what happens to running runs, and the reason everybody will read. */
export function MaintenanceDrawer({ opened, onClose, target }: MaintenanceDrawerProps) {
  const { t } = useTranslation('maintenance');
  const start = useStartMaintenance();
  return (
    <FormDrawer<Inputs, MaintenanceStart>
      opened={opened}
      onClose={onClose}
      title={
        target.scope === 'cluster'
          ? t('drawer.titleCluster')
          : t('drawer.titleVm', { vm: target.vmName })
      }
      submitLabel={t('drawer.submit')}
      schema={maintenanceStartSchema}
      defaultValues={{
        scope: target.scope,
        ...(target.scope === 'vm' ? { rota_vms_id: target.vmId } : {}),
        mode: 'drain',
        message: '',
      }}
      fields={['scope', 'rota_vms_id', 'mode', 'message']}
      onSubmit={(values) => start.mutateAsync(values)}
    >
      {(form) => (
        <>
          <Text size="sm" c="dimmed">
            {t('drawer.description')}
          </Text>
          <Controller
            control={form.control}
            name="mode"
            render={({ field }) => (
              <Stack gap={4}>
                <Text size="sm" fw={500} id="maintenance-mode-label">
                  {t('drawer.mode')}
                </Text>
                <SegmentedControl
                  aria-labelledby="maintenance-mode-label"
                  orientation="vertical"
                  fullWidth
                  data={MAINTENANCE_MODES.map((mode) => ({
                    value: mode,
                    label: t(`drawer.modes.${mode}`),
                  }))}
                  value={field.value}
                  onChange={(value) => field.onChange(value as MaintenanceMode)}
                />
              </Stack>
            )}
          />
          <Textarea
            label={t('drawer.message')}
            placeholder={t('drawer.messagePlaceholder')}
            withAsterisk
            autosize
            minRows={3}
            error={fieldError(form.formState.errors.message ?? form.formState.errors.rota_vms_id)}
            {...form.register('message')}
          />
        </>
      )}
    </FormDrawer>
  );
}
