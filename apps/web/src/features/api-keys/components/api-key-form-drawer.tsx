import { Input, SegmentedControl, TextInput } from '@mantine/core';
import { Controller, useWatch, type FieldError } from 'react-hook-form';
import { apiKeyCreateSchema, type ApiKeyWithSecret, type Permission } from '@rota/contract';
import { DayInput } from '../../../components/date-inputs';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { fieldError } from '../../../lib/form-errors';
import { formSchema } from '../../../lib/form-schema';
import { isoDateOf } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';
import { useCurrentUser } from '../../auth';
import { useCreateApiKey } from '../api/create-api-key';
import { useApiKeysTranslation } from '../i18n';
import { PermissionSubset } from './permission-subset';

const EXPIRIES = ['never', '30', '90', 'date'] as const;
type Expiry = (typeof EXPIRIES)[number];
const SCOPES = ['all', 'some'] as const;
type Scope = (typeof SCOPES)[number];

/** The form's own inputs: the expiry as a choice, the permissions as "all" or a list. */
type ApiKeyInputs = {
  name: string;
  expiry: Expiry;
  /** `YYYY-MM-DD` when `expiry` is 'date'; the key works until that day ends (local time). */
  expires_at: string;
  scope: Scope;
  permissions: Permission[];
};

const DAY_MS = 24 * 60 * 60 * 1000;

function expiresAt(values: ApiKeyInputs, now: number): string | null {
  if (values.expiry === 'never') return null;
  if (values.expiry === 'date') {
    // An empty or unreadable day is left as is, so the schema says "invalid date" under it.
    const end = new Date(`${values.expires_at}T23:59:59`);
    return Number.isNaN(end.getTime()) ? values.expires_at : end.toISOString();
  }
  return new Date(now + Number(values.expiry) * DAY_MS).toISOString();
}

function apiKeyBody(values: ApiKeyInputs) {
  return {
    name: values.name,
    expires_at: expiresAt(values, Date.now()),
    permissions: values.scope === 'all' ? null : values.permissions,
  };
}

const FIELDS = ['name', 'expires_at', 'permissions'] as const;

function ApiKeyFormInputs<TOutput>({ form }: { form: FormDrawerForm<ApiKeyInputs, TOutput> }) {
  const t = useApiKeysTranslation();
  const { data: user } = useCurrentUser();
  const { errors } = form.formState;
  const expiry = useWatch({ control: form.control, name: 'expiry' });
  const scope = useWatch({ control: form.control, name: 'scope' });
  const now = useNow(60_000);
  return (
    <>
      <TextInput
        label={t('form.name')}
        description={t('form.nameHint')}
        withAsterisk
        data-autofocus
        error={fieldError(errors.name)}
        {...form.register('name')}
      />
      <Controller
        control={form.control}
        name="expiry"
        render={({ field }) => (
          <Input.Wrapper
            label={t('form.expiry')}
            // A refused instant (already past) is told here when there is no day input.
            error={expiry === 'date' ? undefined : fieldError(errors.expires_at)}
          >
            <SegmentedControl
              aria-label={t('form.expiry')}
              fullWidth
              mt={4}
              data={EXPIRIES.map((value) => ({ value, label: t(`form.expiries.${value}`) }))}
              value={field.value}
              onChange={(value) => field.onChange(value as Expiry)}
              name={field.name}
            />
          </Input.Wrapper>
        )}
      />
      {expiry === 'date' ? (
        <Controller
          control={form.control}
          name="expires_at"
          render={({ field }) => (
            <DayInput
              label={t('form.expiresOn')}
              withAsterisk
              minDate={isoDateOf(new Date(now + DAY_MS))}
              error={fieldError(errors.expires_at)}
              value={field.value ?? ''}
              onChange={field.onChange}
              onBlur={field.onBlur}
              name={field.name}
              ref={field.ref}
            />
          )}
        />
      ) : null}
      <Controller
        control={form.control}
        name="scope"
        render={({ field }) => (
          <Input.Wrapper label={t('form.permissions')} description={t('form.permissionsHint')}>
            <SegmentedControl
              aria-label={t('form.permissions')}
              fullWidth
              mt={4}
              data={SCOPES.map((value) => ({ value, label: t(`form.scopes.${value}`) }))}
              value={field.value}
              onChange={(value) => field.onChange(value as Scope)}
              name={field.name}
            />
          </Input.Wrapper>
        )}
      />
      {scope === 'some' ? (
        <Controller
          control={form.control}
          name="permissions"
          render={({ field }) => (
            <PermissionSubset
              held={user?.permissions ?? []}
              value={field.value}
              onChange={field.onChange}
              // The list's own error ("choose at least one"), not an item's.
              error={fieldError(errors.permissions as FieldError | undefined)}
            />
          )}
        />
      ) : null}
    </>
  );
}

type ApiKeyFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The new key, with its secret, for the page to show once. */
  onCreated: (key: ApiKeyWithSecret) => void;
};

/** "New API key": a name, an expiry and all of the user's permissions or some of them. */
export function ApiKeyFormDrawer({ opened, onClose, onCreated }: ApiKeyFormDrawerProps) {
  const t = useApiKeysTranslation();
  const create = useCreateApiKey();
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      submitLabel={t('form.create')}
      schema={formSchema(apiKeyCreateSchema, apiKeyBody)}
      fields={FIELDS}
      defaultValues={{ name: '', expiry: '90', expires_at: '', scope: 'all', permissions: [] }}
      onSubmit={async (values) => {
        const answer = await create.mutateAsync(values);
        onCreated(answer.data);
      }}
    >
      {(form) => <ApiKeyFormInputs form={form} />}
    </FormDrawer>
  );
}
