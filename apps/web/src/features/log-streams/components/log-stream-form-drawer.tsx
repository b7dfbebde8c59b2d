import {
  Checkbox,
  Group,
  NumberInput,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { Controller, useWatch } from 'react-hook-form';
import {
  LOG_STREAM_EVENTS,
  logStreamCreateSchema,
  logStreamUpdateSchema,
  type LogStreamConfig,
  type LogStreamTransport,
} from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { MONOSPACE_INPUT } from '../../../components/monospace-input';
import { SwitchField } from '../../../components/switch-field';
import { fieldError, listFieldError } from '../../../lib/form-errors';
import { formSchema, type FormValues } from '../../../lib/form-schema';
import { useCreateLogStream, useUpdateLogStream } from '../api/mutations';
import { useLogStreamsTranslation } from '../i18n';

/**
 * The form's inputs: the certificate as typed ('' = none typed), and on edit whether to remove
 * the one kept. A blank certificate on edit keeps the stored one.
 */
type Inputs = FormValues<
  typeof logStreamCreateSchema,
  { active: boolean; transport: LogStreamTransport; port: number | ''; ca_certificate: string }
> & { remove_certificate: boolean };

const FIELDS = ['name', 'active', 'transport', 'host', 'port', 'events', 'ca_certificate'] as const;

function certificateOf(values: Inputs, editing: boolean): { ca_certificate?: string | null } {
  if (values.transport === 'tcp') return {};
  const typed = values.ca_certificate.trim();
  if (typed) return { ca_certificate: typed };
  if (editing && values.remove_certificate) return { ca_certificate: null };
  return {};
}

function bodyOf(values: Inputs, editing: boolean) {
  return {
    name: values.name,
    active: values.active,
    transport: values.transport,
    host: values.host,
    // An emptied input stays '': the schema answers it with the port's own message.
    port: values.port as number,
    events: values.events,
    ...certificateOf(values, editing),
  };
}

function Fields<TOutput>({
  form,
  stored,
}: {
  form: FormDrawerForm<Inputs, TOutput>;
  stored: LogStreamConfig | null;
}) {
  const t = useLogStreamsTranslation();
  const { errors } = form.formState;
  const transport = useWatch({ control: form.control, name: 'transport' });
  return (
    <>
      <TextInput
        label={t('form.name')}
        withAsterisk
        data-autofocus
        error={fieldError(errors.name)}
        {...form.register('name')}
      />
      <Controller
        control={form.control}
        name="active"
        render={({ field }) => (
          <SwitchField
            label={t('form.active')}
            hint={t('form.activeHint')}
            checked={field.value}
            onChange={(event) => field.onChange(event.currentTarget.checked)}
            onBlur={field.onBlur}
            name={field.name}
          />
        )}
      />
      <Controller
        control={form.control}
        name="transport"
        render={({ field }) => (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="log-stream-transport-label">
              {t('form.transport')}
            </Text>
            <SegmentedControl
              aria-labelledby="log-stream-transport-label"
              value={field.value}
              onChange={(value) => field.onChange(value as LogStreamTransport)}
              data={(['tls', 'tcp'] as const).map((value) => ({
                value,
                label: t(`transport.${value}`),
              }))}
            />
            <Text size="xs" c="dimmed">
              {t('form.transportHint')}
            </Text>
          </Stack>
        )}
      />
      <Group grow align="flex-start" wrap="wrap">
        <TextInput
          label={t('form.host')}
          placeholder="siem.example.com"
          withAsterisk
          miw={180}
          error={fieldError(errors.host)}
          {...form.register('host')}
        />
        <Controller
          control={form.control}
          name="port"
          render={({ field }) => (
            <NumberInput
              label={t('form.port')}
              withAsterisk
              min={1}
              max={65535}
              allowDecimal={false}
              maw={140}
              value={field.value}
              onChange={(value) => field.onChange(typeof value === 'number' ? value : '')}
              onBlur={field.onBlur}
              name={field.name}
              error={fieldError(errors.port)}
            />
          )}
        />
      </Group>
      <Controller
        control={form.control}
        name="events"
        render={({ field }) => (
          <Checkbox.Group
            label={t('form.events')}
            withAsterisk
            value={field.value ?? []}
            onChange={(value) => field.onChange(value)}
            error={listFieldError(errors.events)}
          >
            <Stack gap={6} mt={6}>
              {LOG_STREAM_EVENTS.map((value) => (
                <Checkbox
                  key={value}
                  value={value}
                  label={t(`events.${value}`)}
                  description={t(`events.${value}Hint`)}
                />
              ))}
            </Stack>
          </Checkbox.Group>
        )}
      />
      {transport === 'tls' ? (
        <>
          <Textarea
            label={t('form.caCertificate')}
            description={
              stored?.ca_certificate_set ? t('form.caCertificateKept') : t('form.caCertificateHint')
            }
            placeholder="-----BEGIN CERTIFICATE-----"
            autosize
            minRows={3}
            maxRows={8}
            styles={MONOSPACE_INPUT}
            error={fieldError(errors.ca_certificate)}
            {...form.register('ca_certificate')}
          />
          {stored?.ca_certificate_set ? (
            <Controller
              control={form.control}
              name="remove_certificate"
              render={({ field }) => (
                <Checkbox
                  label={t('form.removeCertificate')}
                  checked={field.value}
                  onChange={(event) => field.onChange(event.currentTarget.checked)}
                />
              )}
            />
          ) : null}
        </>
      ) : null}
    </>
  );
}

type Props = {
  opened: boolean;
  onClose: () => void;
  /** The stream to edit; without it the drawer creates one. */
  stream?: LogStreamConfig | null;
};

/** "Novo fluxo de logs" / "Editar fluxo de logs": where, how, what, and the receiver's CA. */
export function LogStreamFormDrawer({ opened, onClose, stream }: Props) {
  const t = useLogStreamsTranslation();
  const create = useCreateLogStream();
  const update = useUpdateLogStream();
  if (stream) {
    return (
      <FormDrawer
        opened={opened}
        onClose={onClose}
        title={t('form.editTitle')}
        schema={formSchema(logStreamUpdateSchema, (values: Inputs) => ({
          id: stream.rota_log_streams_id,
          ...bodyOf(values, true),
        }))}
        fields={FIELDS}
        defaultValues={{
          name: stream.name,
          active: stream.active,
          transport: stream.transport,
          host: stream.host,
          port: stream.port,
          events: stream.events,
          ca_certificate: '',
          remove_certificate: false,
        }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => <Fields form={form} stored={stream} />}
      </FormDrawer>
    );
  }
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      submitLabel={t('form.create')}
      schema={formSchema(logStreamCreateSchema, (values: Inputs) => bodyOf(values, false))}
      fields={FIELDS}
      defaultValues={{
        name: '',
        active: true,
        transport: 'tls',
        host: '',
        port: 6514,
        events: ['audit', 'execution'],
        ca_certificate: '',
        remove_certificate: false,
      }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => <Fields form={form} stored={null} />}
    </FormDrawer>
  );
}
