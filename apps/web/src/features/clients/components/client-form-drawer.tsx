import { Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { clientCreateSchema, clientUpdateSchema, type Client } from '@rota/contract';
import { FormDrawer } from '../../../components/form-drawer';
import { fieldError } from '../../../lib/form-errors';
import { useCreateClient } from '../api/create-client';
import { useUpdateClient } from '../api/update-client';
import '../i18n';

type ClientFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The client to rename; without it the drawer creates one. */
  client?: Client | null;
};

/** "Novo cliente" / "Renomear cliente": clientCreateSchema or clientUpdateSchema. */
export function ClientFormDrawer({ opened, onClose, client }: ClientFormDrawerProps) {
  const { t } = useTranslation('clients');
  const create = useCreateClient();
  const update = useUpdateClient();

  if (client) {
    return (
      <FormDrawer
        opened={opened}
        onClose={onClose}
        title={t('form.renameTitle')}
        schema={clientUpdateSchema}
        defaultValues={{ id: client.rota_clients_id, name: client.name }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => (
          <TextInput
            label={t('form.name')}
            withAsterisk
            data-autofocus
            autoComplete="off"
            error={fieldError(form.formState.errors.name)}
            {...form.register('name')}
          />
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
      defaultValues={{ name: '' }}
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
          <Text size="sm" c="dimmed">
            {t('form.createHint')}
          </Text>
        </>
      )}
    </FormDrawer>
  );
}
