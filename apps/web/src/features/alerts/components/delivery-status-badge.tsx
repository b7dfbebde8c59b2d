import type { AlertDeliveryStatus } from '@rota/contract';
import { StatusBadge } from '../../../components/badges';
import { useAlertsTranslation } from '../i18n';

const COLORS = { pending: 'yellow', delivered: 'teal', failed: 'red' } as const;

/** Pendente / Entregue / Falhou. */
export function DeliveryStatusBadge({ status }: { status: AlertDeliveryStatus }) {
  const t = useAlertsTranslation();
  return (
    <StatusBadge
      status={status}
      colors={COLORS}
      labels={{
        pending: t('deliveries.statuses.pending'),
        delivered: t('deliveries.statuses.delivered'),
        failed: t('deliveries.statuses.failed'),
      }}
    />
  );
}
