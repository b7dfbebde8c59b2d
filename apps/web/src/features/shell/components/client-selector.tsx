import { Select } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MeResponse } from '@rota/contract';
import { reloadPage } from '../../../lib/navigation';
import { showErrorToast } from '../../../lib/notify';
import { selectClient } from '../../users';

/**
 * Shown only to users of two or more clients. Everything on screen belongs to the
 * selected client, so a change reloads the whole page rather than patching caches.
 */
export function ClientSelector({ user }: { user: MeResponse }) {
  const { t } = useTranslation();
  const mutation = useMutation({
    mutationFn: selectClient,
    onSuccess: () => reloadPage(),
    onError: (error) => showErrorToast(error),
  });

  if (user.clients.length < 2) return null;

  const current =
    user.rota_clients_id_selected === null ? null : String(user.rota_clients_id_selected);
  return (
    <Select
      aria-label={t('shell.client')}
      data={user.clients.map((client) => ({
        value: String(client.rota_clients_id),
        label: client.name,
      }))}
      value={current}
      allowDeselect={false}
      disabled={mutation.isPending}
      w={{ base: 110, sm: 220 }}
      comboboxProps={{ width: 240, position: 'bottom-end' }}
      onChange={(value) => {
        if (value === null || value === current) return;
        mutation.mutate({ users_id: user.users_id, rota_clients_id_selected: Number(value) });
      }}
    />
  );
}
