import type { MantineColor } from '@mantine/core';
import type { Connectivity } from '@rota/contract';
import { StatusBadge } from '../../../components/badges';

/** Active green, inactive grey (VMs and agents alike). */
export const CONNECTIVITY_COLORS: Record<Connectivity, MantineColor> = {
  active: 'green',
  inactive: 'gray',
};

/** A VM's or an agent's connectivity; `labels` in the caller's words ("Ativa" / "Ativo"). */
export function ConnectivityBadge({
  value,
  labels,
}: {
  value: Connectivity;
  labels: Record<Connectivity, string>;
}) {
  return <StatusBadge status={value} colors={CONNECTIVITY_COLORS} labels={labels} />;
}
