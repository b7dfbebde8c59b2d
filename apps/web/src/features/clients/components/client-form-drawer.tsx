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
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { SwitchField } from '../../../components/switch-field';
import { formSchema, type FormValues } from '../../../lib/form-schema';
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

type ClientInputs = FormValues<typeof clientCreateSchema>;

/** Name and retention: the same inputs whether the drawer creates or edits. */
function ClientFormInputs<TOutput>({ form }: { form: FormDrawerForm<ClientInputs, TOutput> }) {
  const { t } = useTranslation('clients');
  const { errors } = form.formState;
  return (
    <>
      <TextInput
        label={t('form.name')}
        withAsterisk
        data-autofocus
        autoComplete="off"
        error={fieldError(errors.name)}
        {...form.register('name')}
      />
      <Fieldset legend={t('form.retentionLegend')} variant="filled" radius="md">
        <Stack gap="md">
          <Controller
            control={form.control}
            name="retention_days"
            render={({ field }) => (
              <DaysInput
                label={t('form.retentionDays')}
                hint={t('form.retentionDaysHint')}
                {...field}
                error={errors.retention_days}
              />
            )}
          />
          <Controller
            control={form.control}
            name="audit_retention_days"
            render={({ field }) => (
              <DaysInput
                label={t('form.auditRetentionDays')}
                hint={t('form.auditRetentionDaysHint')}
                {...field}
                error={errors.audit_retention_days}
              />
            )}
          />
        </Stack>
      </Fieldset>
      <Controller
        control={form.control}
        name="require_mfa"
        render={({ field: { value, onChange, ...field } }) => (
          <SwitchField
            label={t('form.requireMfa')}
            hint={t('form.requireMfaHint')}
            checked={value ?? false}
            onChange={(event) => onChange(event.currentTarget.checked)}
            {...field}
          />
        )}
      />
    </>
  );
}

/** "Novo cliente" / "Editar cliente": clientCreateSchema or clientUpdateSchema. */
export function ClientFormDrawer({ opened, onClose, client }: ClientFormDrawerProps) {
  const { t } = useTranslation('clients');
  const create = useCreateClient();
  const update = useUpdateClient();

  if (client) {
    return (
      <FormDrawer
        opened={opened}
        onClose={onClose}
        title={t('form.editTitle')}
        schema={formSchema(clientUpdateSchema, (values: ClientInputs) => ({
          id: client.rota_clients_id,
          ...values,
        }))}
        defaultValues={{
          name: client.name,
          retention_days: client.retention_days,
          audit_retention_days: client.audit_retention_days,
          require_mfa: client.require_mfa,
        }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => <ClientFormInputs form={form} />}
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
        require_mfa: false,
      }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => (
        <>
          <ClientFormInputs form={form} />
          <Text size="sm" c="dimmed">
            {t('form.createHint')}
          </Text>
        </>
      )}
    </FormDrawer>
  );
}
