import { Checkbox, Divider, NumberInput, PasswordInput, TextInput } from '@mantine/core';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import {
  environmentCreateSchema,
  environmentUpdateSchema,
  type Environment,
  type EnvironmentCreate,
  type EnvironmentUpdate,
} from '@rota/contract';
import { FormDrawer } from '../../../components/form-drawer';
import { fieldError } from '../../../lib/form-errors';
import { formSchema, type FormValues } from '../../../lib/form-schema';
import { MONOSPACE_INPUT } from '../../../components/monospace-input';
import { useCreateEnvironment } from '../api/create-environment';
import { useUpdateEnvironment } from '../api/update-environment';
import { useEnvironmentsTranslation } from '../i18n';
import { FieldRow } from '../../../components/field-row';

/** What the inputs hold. A secret's text is only ever what the user typed in this form. */
export type EnvironmentFormValues = FormValues<
  typeof environmentCreateSchema,
  {
    title: string;
    db_url: string;
    db_port: number | '';
    db_name: string;
    db_user: string;
    db_pass: string;
    rota_api_url: string;
    rota_token: string;
  }
> & { clear_db_pass: boolean; clear_rota_token: boolean };

type Secret = 'db_pass' | 'rota_token';

const FIELDS = [
  'title',
  'db_url',
  'db_port',
  'db_name',
  'db_user',
  'db_pass',
  'rota_api_url',
  'rota_token',
] as const;

/**
 * The body to send. A secret typed replaces the stored one; "remove" sends null; an empty input
 * sends nothing, which keeps what is stored (and on create, stores none).
 */
export function environmentPayload(values: EnvironmentFormValues) {
  const secret = (name: Secret) => {
    if (values[`clear_${name}`]) return { [name]: null };
    return values[name] === '' ? {} : { [name]: values[name] };
  };
  return {
    title: values.title,
    db_url: values.db_url,
    db_port: values.db_port === '' ? null : values.db_port,
    db_name: values.db_name,
    db_user: values.db_user,
    rota_api_url: values.rota_api_url,
    ...secret('db_pass'),
    ...secret('rota_token'),
  };
}

function SecretInput<TOutput>({
  form,
  name,
  label,
  stored,
}: {
  form: UseFormReturn<EnvironmentFormValues, unknown, TOutput>;
  name: Secret;
  label: string;
  /** Whether one is stored; undefined while creating. */
  stored: boolean | undefined;
}) {
  const t = useEnvironmentsTranslation();
  const clearName = `clear_${name}` as const;
  const clearing = useWatch({ control: form.control, name: clearName });
  // The state agrees with the secret's noun in Portuguese ("definida" / "definido").
  const state = stored ? t('secret.set', { context: name }) : t('secret.notSet', { context: name });
  const description =
    stored === undefined
      ? t('form.secretHint')
      : [t('form.secretState', { state }), stored ? t('form.keepHint') : null]
          .filter(Boolean)
          .join(' ');
  return (
    <>
      <PasswordInput
        label={stored ? t('form.replaceLabel', { label }) : label}
        description={description}
        // Never the user's own sign-in password from the browser's store.
        autoComplete="new-password"
        disabled={clearing}
        error={fieldError(form.formState.errors[name])}
        {...form.register(name)}
      />
      {stored ? (
        <Checkbox
          label={t('form.clear')}
          aria-label={`${t('form.clear')}: ${label}`}
          {...form.register(clearName)}
        />
      ) : null}
    </>
  );
}

function EnvironmentFormInputs<TOutput>({
  form,
  current,
}: {
  form: UseFormReturn<EnvironmentFormValues, unknown, TOutput>;
  current?: Environment;
}) {
  const t = useEnvironmentsTranslation();
  const { errors } = form.formState;
  return (
    <>
      <TextInput
        label={t('form.title')}
        withAsterisk
        data-autofocus
        error={fieldError(errors.title)}
        {...form.register('title')}
      />
      <Divider label={t('form.database')} labelPosition="left" />
      {/* The host takes the row, the port a narrow column; stacked at full width on a phone. */}
      <FieldRow template="minmax(0, 1fr) 8rem">
        <TextInput
          label={t('form.dbUrl')}
          description={t('form.dbUrlHint')}
          styles={MONOSPACE_INPUT}
          spellCheck={false}
          autoCapitalize="off"
          error={fieldError(errors.db_url)}
          {...form.register('db_url')}
        />
        <Controller
          control={form.control}
          name="db_port"
          render={({ field }) => (
            <NumberInput
              label={t('form.dbPort')}
              description={t('form.dbPortHint')}
              placeholder={t('form.dbPortPlaceholder')}
              min={1}
              max={65535}
              allowDecimal={false}
              allowNegative={false}
              // The contract's range message says what is wrong; clamping would hide it.
              clampBehavior="none"
              hideControls
              name={field.name}
              value={field.value}
              onChange={(value) => field.onChange(typeof value === 'number' ? value : '')}
              onBlur={field.onBlur}
              error={fieldError(errors.db_port)}
            />
          )}
        />
      </FieldRow>
      <TextInput
        label={t('form.dbName')}
        styles={MONOSPACE_INPUT}
        spellCheck={false}
        autoCapitalize="off"
        error={fieldError(errors.db_name)}
        {...form.register('db_name')}
      />
      <TextInput
        label={t('form.dbUser')}
        styles={MONOSPACE_INPUT}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        error={fieldError(errors.db_user)}
        {...form.register('db_user')}
      />
      <SecretInput
        form={form}
        name="db_pass"
        label={t('form.dbPass')}
        stored={current?.has_db_pass}
      />
      <Divider label={t('form.api')} labelPosition="left" />
      <TextInput
        label={t('form.rotaApiUrl')}
        placeholder="https://"
        styles={MONOSPACE_INPUT}
        spellCheck={false}
        autoCapitalize="off"
        error={fieldError(errors.rota_api_url)}
        {...form.register('rota_api_url')}
      />
      <SecretInput
        form={form}
        name="rota_token"
        label={t('form.rotaToken')}
        stored={current?.has_rota_token}
      />
    </>
  );
}

type EnvironmentFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The environment to edit; without it the drawer creates one. */
  environment?: Environment | null;
};

/**
 * "Novo ambiente" / "Editar ambiente": environmentCreateSchema or environmentUpdateSchema, as the
 * server checks. Stored secrets are never read back: the form says whether each is set and
 * offers to replace or remove it.
 */
export function EnvironmentFormDrawer({
  opened,
  onClose,
  environment,
}: EnvironmentFormDrawerProps) {
  const t = useEnvironmentsTranslation();
  const create = useCreateEnvironment();
  const update = useUpdateEnvironment();
  const blank = { db_pass: '', clear_db_pass: false, rota_token: '', clear_rota_token: false };

  if (environment) {
    return (
      <FormDrawer<EnvironmentFormValues, EnvironmentUpdate>
        opened={opened}
        onClose={onClose}
        title={t('form.editTitle')}
        // The contract's schema run on the body the form would send; its issues name the same
        // fields.
        schema={formSchema(environmentUpdateSchema, (values: EnvironmentFormValues) => ({
          id: environment.rota_environments_id,
          ...environmentPayload(values),
        }))}
        fields={FIELDS}
        defaultValues={{
          title: environment.title,
          db_url: environment.db_url ?? '',
          db_port: environment.db_port ?? '',
          db_name: environment.db_name ?? '',
          db_user: environment.db_user ?? '',
          rota_api_url: environment.rota_api_url ?? '',
          ...blank,
        }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => <EnvironmentFormInputs form={form} current={environment} />}
      </FormDrawer>
    );
  }
  return (
    <FormDrawer<EnvironmentFormValues, EnvironmentCreate>
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      submitLabel={t('form.create')}
      schema={formSchema(environmentCreateSchema, environmentPayload)}
      fields={FIELDS}
      defaultValues={{
        title: '',
        db_url: '',
        db_port: '',
        db_name: '',
        db_user: '',
        rota_api_url: '',
        ...blank,
      }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => <EnvironmentFormInputs form={form} />}
    </FormDrawer>
  );
}
