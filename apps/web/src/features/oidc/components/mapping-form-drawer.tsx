import { Select, TagsInput, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { oidcMappingCreateSchema, oidcMappingUpdateSchema, type OidcMapping } from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { fieldError, listFieldError } from '../../../lib/form-errors';
import { formSchema, type FormValues } from '../../../lib/form-schema';
import { clientOptionsQueryOptions } from '../api/client-options';
import { clientProfilesQueryOptions } from '../api/client-profiles';
import { useCreateOidcMapping } from '../api/create-mapping';
import { useUpdateOidcMapping } from '../api/update-mapping';
import '../i18n';

type MappingInputs = FormValues<
  typeof oidcMappingCreateSchema,
  { rota_clients_id: number | null; profiles_id: number | null }
>;

/** An unchosen select fails the schema with its "required" message (NaN is no number). */
const toBody = (values: MappingInputs) => ({
  claim_value: values.claim_value,
  rota_clients_id: values.rota_clients_id ?? Number.NaN,
  profiles_id: values.profiles_id ?? Number.NaN,
  auto_link_domains: values.auto_link_domains ?? [],
});

/** The fields the server's errors may name; a wrong domain names its item (`auto_link_domains.1`). */
const isMappingField = (name: string) =>
  ['claim_value', 'rota_clients_id', 'profiles_id'].includes(name) ||
  name === 'auto_link_domains' ||
  name.startsWith('auto_link_domains.');

const toIdOption = (id: number, label: string) => ({ value: String(id), label });
const toId = (value: string | null) => (value ? Number(value) : null);

/** Group, then client, then a profile of that client: a new client empties the profile. */
function MappingInputs<TOutput>({
  form,
  mapping,
}: {
  form: FormDrawerForm<MappingInputs, TOutput>;
  mapping: OidcMapping | null;
}) {
  const { t } = useTranslation('oidc');
  const { errors } = form.formState;
  const clientId = useWatch({ control: form.control, name: 'rota_clients_id' });
  const clients = useQuery(clientOptionsQueryOptions());
  const profiles = useQuery({
    ...clientProfilesQueryOptions(clientId ?? 0),
    enabled: clientId !== null,
  });

  const clientData = (clients.data?.data ?? []).map((c) => toIdOption(c.rota_clients_id, c.name));
  // The edited mapping's client may be beyond the first page of clients: keep it choosable.
  if (mapping && !clientData.some((o) => o.value === String(mapping.rota_clients_id))) {
    clientData.unshift(toIdOption(mapping.rota_clients_id, mapping.client_name));
  }
  const profileData =
    clientId === null ? [] : (profiles.data ?? []).map((p) => toIdOption(p.profiles_id, p.name));

  return (
    <>
      <TextInput
        label={t('form.group')}
        description={t('form.groupHint')}
        withAsterisk
        data-autofocus
        autoComplete="off"
        spellCheck={false}
        error={fieldError(errors.claim_value)}
        {...form.register('claim_value')}
      />
      <Controller
        control={form.control}
        name="rota_clients_id"
        render={({ field: { value, onChange, ...field } }) => (
          <Select
            label={t('form.client')}
            withAsterisk
            searchable
            data={clientData}
            value={value === null ? null : String(value)}
            onChange={(next) => {
              onChange(toId(next));
              form.setValue('profiles_id', null);
            }}
            error={fieldError(errors.rota_clients_id)}
            {...field}
          />
        )}
      />
      <Controller
        control={form.control}
        name="profiles_id"
        render={({ field: { value, onChange, ...field } }) => (
          <Select
            label={t('form.profile')}
            withAsterisk
            data={profileData}
            placeholder={clientId === null ? t('form.profilePlaceholder') : undefined}
            disabled={clientId === null}
            value={value === null ? null : String(value)}
            onChange={(next) => onChange(toId(next))}
            error={fieldError(errors.profiles_id)}
            {...field}
          />
        )}
      />
      <Controller
        control={form.control}
        name="auto_link_domains"
        render={({ field }) => (
          <TagsInput
            label={t('form.autoLink')}
            description={t('form.autoLinkHint')}
            placeholder={t('form.autoLinkPlaceholder')}
            splitChars={[',', ' ', ';']}
            clearable
            value={field.value ?? []}
            onChange={field.onChange}
            onBlur={field.onBlur}
            name={field.name}
            error={listFieldError(errors.auto_link_domains)}
          />
        )}
      />
    </>
  );
}

type MappingFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The mapping to edit; without it the drawer creates one. */
  mapping: OidcMapping | null;
};

/** "New group mapping" / "Edit group mapping": oidcMappingCreateSchema or oidcMappingUpdateSchema. */
export function MappingFormDrawer({ opened, onClose, mapping }: MappingFormDrawerProps) {
  const { t } = useTranslation('oidc');
  const create = useCreateOidcMapping();
  const update = useUpdateOidcMapping();

  if (mapping) {
    return (
      <FormDrawer
        opened={opened}
        onClose={onClose}
        title={t('form.editTitle')}
        fields={isMappingField}
        schema={formSchema(oidcMappingUpdateSchema, (values: MappingInputs) => ({
          id: mapping.oidc_mappings_id,
          ...toBody(values),
        }))}
        defaultValues={{
          claim_value: mapping.claim_value,
          rota_clients_id: mapping.rota_clients_id,
          profiles_id: mapping.profiles_id,
          auto_link_domains: mapping.auto_link_domains,
        }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => <MappingInputs form={form} mapping={mapping} />}
      </FormDrawer>
    );
  }
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      fields={isMappingField}
      submitLabel={t('form.create')}
      schema={formSchema(oidcMappingCreateSchema, toBody)}
      defaultValues={{
        claim_value: '',
        rota_clients_id: null,
        profiles_id: null,
        auto_link_domains: [],
      }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => <MappingInputs form={form} mapping={null} />}
    </FormDrawer>
  );
}
