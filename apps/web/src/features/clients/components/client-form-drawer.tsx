import { Fieldset, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { Controller, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  CLIENT_AUDIT_RETENTION_DAYS_DEFAULT,
  CLIENT_RETENTION_DAYS_DEFAULT,
  CLIENT_RETENTION_DAYS_MAX,
  clientCreateSchema,
  clientUpdateSchema,
  type Client,
} from '@rota/contract';
import { FormDrawer } from '../../../components/form-drawer';
import { fieldError } from '../../../lib/form-errors';
import { useCreateClient } from '../api/create-client';
import { useUpdateClient } from '../api/update-client';
import '../i18n';

type ClientFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The client to edit; without it the drawer creates one. */
  client?: Client | null;
};

type DaysInputProps = {
  label: string;
  hint: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  onBlur: () => void;
  name: string;
  error: FieldError | undefined;
};

/** Days (1–3650) a client keeps its executions or its audit records. */
function DaysInput({ label, hint, value, onChange, onBlur, name, error }: DaysInputProps) {
  return (
    <NumberInput
      label={label}
      description={hint}
      min={1}
      max={CLIENT_RETENTION_DAYS_MAX}
      allowDecimal={false}
      value={value ?? ''}
      onChange={(next) => onChange(typeof next === 'number' ? next : undefined)}
      onBlur={onBlur}
      name={name}
      error={fieldError(error)}
    />
  );
}

/** "Novo cliente" / "Editar cliente": clientCreateSchema or clientUpdateSchema. */
export function ClientFormDrawer({ opened, onClose, client }: ClientFormDrawerProps) {
  const { t } = useTranslation('clients');
  const create = useCreateClient();
  const update = useUpdateClient();
  const runsLabel = t('form.retentionDays');
  const runsHint = t('form.retentionDaysHint');
  const auditLabel = t('form.auditRetentionDays');
  const auditHint = t('form.auditRetentionDaysHint');

  if (client) {
    return (
      <FormDrawer
        opened={opened}
        onClose={onClose}
        title={t('form.editTitle')}
        schema={clientUpdateSchema}
        defaultValues={{
          id: client.rota_clients_id,
          name: client.name,
          retention_days: client.retention_days,
          audit_retention_days: client.audit_retention_days,
        }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => (
          <>
            <TextInput
              label={t('form.name')}
              withAsterisk
              data-autofocus
              autoComplete="off"
              error={fieldError(form.formState.errors.name)}
              {...form.register('name')}
            />
            <Fieldset legend={t('form.retentionLegend')} variant="filled" radius="md">
              <Stack gap="md">
                <Controller
                  control={form.control}
                  name="retention_days"
                  render={({ field }) => (
                    <DaysInput
                      label={runsLabel}
                      hint={runsHint}
                      {...field}
                      error={form.formState.errors.retention_days}
                    />
                  )}
                />
                <Controller
                  control={form.control}
                  name="audit_retention_days"
                  render={({ field }) => (
                    <DaysInput
                      label={auditLabel}
                      hint={auditHint}
                      {...field}
                      error={form.formState.errors.audit_retention_days}
                    />
                  )}
                />
              </Stack>
            </Fieldset>
          </>
        )}
      </FormDrawer>
    );
  }
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      submitLabel={t('form.create')}
      schema={clientCreateSchema}
      defaultValues={{
        name: '',
        retention_days: CLIENT_RETENTION_DAYS_DEFAULT,
        audit_retention_days: CLIENT_AUDIT_RETENTION_DAYS_DEFAULT,
      }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => (
        <>
          <TextInput
            label={t('form.name')}
            withAsterisk
            data-autofocus
            autoComplete="off"
            error={fieldError(form.formState.errors.name)}
            {...form.register('name')}
          />
          <Fieldset legend={t('form.retentionLegend')} variant="filled" radius="md">
            <Stack gap="md">
              <Controller
                control={form.control}
                name="retention_days"
                render={({ field }) => (
                  <DaysInput
                    label={runsLabel}
                    hint={runsHint}
                    {...field}
                    error={form.formState.errors.retention_days}
                  />
                )}
              />
              <Controller
                control={form.control}
                name="audit_retention_days"
                render={({ field }) => (
                  <DaysInput
                    label={auditLabel}
                    hint={auditHint}
                    {...field}
                    error={form.formState.errors.audit_retention_days}
                  />
                )}
              />
            </Stack>
          </Fieldset>
          <Text size="sm" c="dimmed">
            {t('form.createHint')}
          </Text>
        </>
      )}
    </FormDrawer>
  );
}
