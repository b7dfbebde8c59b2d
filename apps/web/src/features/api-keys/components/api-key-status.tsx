import type { ApiKey } from '@rota/contract';
import { StatusBadge } from '../../../components/badges';
import { useApiKeysTranslation } from '../i18n';

export type ApiKeyStatus = 'active' | 'expired' | 'revoked';

/** A revoked key stays revoked; otherwise it has expired once its instant has passed. */
export function apiKeyStatus(
  key: Pick<ApiKey, 'revoked_at' | 'expires_at'>,
  now: number,
): ApiKeyStatus {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at && new Date(key.expires_at).getTime() <= now) return 'expired';
  return 'active';
}

const COLORS = { active: 'teal', expired: 'gray', revoked: 'red' } as const;

export function ApiKeyStatusBadge({ status }: { status: ApiKeyStatus }) {
  const t = useApiKeysTranslation();
  return (
    <StatusBadge
      status={status}
      colors={COLORS}
      labels={{
        active: t('status.active'),
        expired: t('status.expired'),
        revoked: t('status.revoked'),
      }}
    />
  );
}
