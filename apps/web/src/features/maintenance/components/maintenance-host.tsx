import { useQuery } from '@tanstack/react-query';
import type { MaintenanceWindow, MeResponse } from '@rota/contract';
import { useCan } from '../../auth';
import { useIsPlatformAdmin } from '../../clients';
import { useEndMaintenance } from '../api/change-maintenance';
import { activeMaintenanceQueryOptions } from '../api/show-maintenance';
import { MaintenanceBanner } from './maintenance-banner';

/** The shell's banner: the active windows over the selected client, with End for who may. */
export function MaintenanceHost({ user }: { user: MeResponse }) {
  const can = useCan();
  const { isPlatformAdmin } = useIsPlatformAdmin(user);
  const active = useQuery({
    ...activeMaintenanceQueryOptions(),
    enabled: !!user.rota_clients_id_selected,
  });
  const end = useEndMaintenance();
  const canEnd = (window: MaintenanceWindow) =>
    window.scope === 'cluster' ? isPlatformAdmin : can('AGENTES.UPDATE');
  return (
    <MaintenanceBanner
      windows={active.data ?? []}
      canEnd={canEnd}
      ending={end.isPending}
      onEnd={(window) =>
        end.mutate(
          window.scope === 'cluster'
            ? { scope: 'cluster' }
            : { scope: 'vm', rota_vms_id: window.rota_vms_id! },
        )
      }
    />
  );
}
