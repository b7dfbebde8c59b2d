import { ActionIcon, Button, Fieldset, Group, Select, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import {
  Controller,
  useFieldArray,
  useWatch,
  type FieldError,
  type UseFormReturn,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { MeResponse, User } from '@rota/contract';
import { fieldError } from '../../../lib/form-errors';
import { profileOptionsQueryOptions } from '../../profiles';
import type { UserFormOutput, UserFormValues } from './user-form';
import '../i18n';

type MembershipsEditorProps = {
  form: UseFormReturn<UserFormValues, unknown, UserFormOutput>;
  /** The signed-in user: their clients are the ones offered. */
  me: MeResponse;
  /** The user being edited (their current memberships), or null on create. */
  target: User | null;
};

/**
 * The user's clients, each with a profile of that client. Profiles can only be listed in the
 * selected client (the profiles API is scoped to it), so a new membership can only be there;
 * memberships the user already has elsewhere are kept, or removed, as they are.
 */
export function MembershipsEditor({ form, me, target }: MembershipsEditorProps) {
  const { t } = useTranslation('users');
  const { control } = form;
  const { fields, append, remove } = useFieldArray({ control, name: 'clients' });
  const rows = useWatch({ control, name: 'clients' }) ?? [];
  const selected = me.rota_clients_id_selected;
  const profiles = useQuery(profileOptionsQueryOptions());
  const original = new Map((target?.clients ?? []).map((m) => [m.rota_clients_id, m]));

  // The reader's clients, and any other client the edited user already belongs to.
  const clients = new Map(me.clients.map((c) => [c.rota_clients_id, c.name]));
  for (const m of target?.clients ?? []) {
    if (!clients.has(m.rota_clients_id)) clients.set(m.rota_clients_id, m.client_name);
  }
  const clientName = (id: number | null) => (id === null ? '' : (clients.get(id) ?? `#${id}`));
  const eligible = (id: number) => id === selected || original.has(id);
  const used = new Set(rows.map((row) => row.rota_clients_id));
  const canAdd = [...clients.keys()].some((id) => eligible(id) && !used.has(id));

  const { errors } = form.formState;
  const listError = errors.clients as (FieldError & { root?: FieldError }) | undefined;
  const listMessage = fieldError(listError?.root ?? (listError?.message ? listError : undefined));
  const selectedName = clientName(selected);

  return (
    <Fieldset legend={t('memberships.legend')} variant="filled" p="sm">
      <Stack gap="sm">
        {fields.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('memberships.empty')}
          </Text>
        ) : null}
        {fields.map((field, index) => {
          const row = rows[index] ?? { rota_clients_id: null, profiles_id: null };
          const clientId = row.rota_clients_id;
          const kept = clientId !== null ? original.get(clientId) : undefined;
          const inSelected = clientId !== null && clientId === selected;
          const profileData = inSelected
            ? (profiles.data ?? []).map((p) => ({ value: String(p.profiles_id), label: p.name }))
            : kept
              ? [{ value: String(kept.profiles_id), label: kept.profile_name }]
              : [];
          const name = clientName(clientId) || t('memberships.row', { index: index + 1 });
          return (
            <Group key={field.id} gap="xs" align="flex-start" wrap="nowrap">
              <Group gap="xs" align="flex-start" grow style={{ flex: 1 }} wrap="wrap">
                <Controller
                  control={control}
                  name={`clients.${index}.rota_clients_id`}
                  render={({ field: input, fieldState }) => (
                    <Select
                      label={t('memberships.client')}
                      withAsterisk
                      miw={140}
                      data={[...clients].map(([id, label]) => ({
                        value: String(id),
                        label,
                        disabled: id !== input.value && (used.has(id) || !eligible(id)),
                      }))}
                      value={input.value === null ? null : String(input.value)}
                      onChange={(value) => {
                        const next = value === null ? null : Number(value);
                        input.onChange(next);
                        // A profile belongs to one client: a new client starts without one.
                        const back = next !== null ? original.get(next) : undefined;
                        form.setValue(`clients.${index}.profiles_id`, back?.profiles_id ?? null);
                      }}
                      onBlur={input.onBlur}
                      error={fieldError(fieldState.error)}
                      allowDeselect={false}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name={`clients.${index}.profiles_id`}
                  render={({ field: input, fieldState }) => (
                    <Select
                      label={t('memberships.profile')}
                      withAsterisk
                      miw={140}
                      placeholder={
                        inSelected && profiles.isPending
                          ? t('memberships.loadingProfiles')
                          : undefined
                      }
                      data={profileData}
                      value={input.value === null ? null : String(input.value)}
                      onChange={(value) => input.onChange(value === null ? null : Number(value))}
                      onBlur={input.onBlur}
                      disabled={!inSelected}
                      description={
                        clientId !== null && !inSelected
                          ? t('memberships.otherClientHint', { client: selectedName })
                          : undefined
                      }
                      error={fieldError(fieldState.error)}
                      allowDeselect={false}
                      searchable
                      nothingFoundMessage={t('memberships.noProfiles')}
                    />
                  )}
                />
              </Group>
              <ActionIcon
                variant="subtle"
                color="red"
                mt={26}
                onClick={() => remove(index)}
                aria-label={t('memberships.remove', { client: name })}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Group>
          );
        })}
        {listMessage ? (
          <Text size="sm" c="red" role="alert">
            {listMessage}
          </Text>
        ) : null}
        {canAdd ? (
          <Group justify="flex-start">
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => {
                const free = [...clients.keys()].find((id) => eligible(id) && !used.has(id));
                const back = free !== undefined ? original.get(free) : undefined;
                append({ rota_clients_id: free ?? null, profiles_id: back?.profiles_id ?? null });
              }}
            >
              {t('memberships.add')}
            </Button>
          </Group>
        ) : null}
        {clients.size > 1 ? (
          <Text size="xs" c="dimmed">
            {t('memberships.selectedOnlyHint', { client: selectedName })}
          </Text>
        ) : null}
      </Stack>
    </Fieldset>
  );
}
