import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconKey } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { OidcErrorCode } from '@rota/contract';
import { safeRedirect } from '../../../lib/paths';
import { oidcConfigQueryOptions, oidcStartUrl } from '../api/oidc-config';
import '../sign-in/i18n';

/**
 * The callback's codes (OIDC_ERROR_CODES) are message keys; read by prefix rather than with the
 * contract's list, which would bring one more chunk into the sign-in page's first download.
 */
function isOidcErrorCode(value: string, known: (key: string) => boolean): value is OidcErrorCode {
  return value.startsWith('oidc_') && known(value);
}

/** The configuration when single sign-on is on; undefined while unknown, off or unreadable. */
function useEnabledConfig() {
  const config = useQuery(oidcConfigQueryOptions());
  return config.data?.enabled ? config.data : undefined;
}

/**
 * Whether the sign-in page shows its local form: not when the server turned local sign-in off
 * (`OIDC_LOCAL_LOGIN=false`), unless `?local=1` asks for it (platform administrators). Until
 * the configuration arrives, or when it cannot be read, the form shows as it always did.
 */
export function useLocalSignInShown(): boolean {
  const [searchParams] = useSearchParams();
  const sso = useEnabledConfig();
  return !sso || sso.local_login || searchParams.get('local') === '1';
}

/**
 * The sign-in page's single sign-on part, above its form: the failure the callback sent back
 * (`?sso_error=<code>`, in the reader's language) and the "Sign in with <label>" button, which
 * goes through the server's start address and comes back to the page first asked for.
 */
export function OidcSignIn() {
  const { t } = useTranslation('oidcSignIn');
  const { t: tm, i18n } = useTranslation('messages');
  const [searchParams] = useSearchParams();
  const sso = useEnabledConfig();
  const showLocal = useLocalSignInShown();
  const code = searchParams.get('sso_error');
  // An unknown code is still a failed attempt: say so in general words.
  const failure =
    code === null
      ? null
      : tm(
          isOidcErrorCode(code, (key) => i18n.exists(key, { ns: 'messages' }))
            ? code
            : 'oidc_failed',
        );
  if (!sso && !failure) return null;

  return (
    <Stack gap="md" mb="md">
      {failure ? (
        <Alert
          color="red"
          variant="light"
          title={t('errorTitle')}
          icon={<IconAlertCircle aria-hidden />}
        >
          {failure}
        </Alert>
      ) : null}
      {sso ? (
        <Button
          component="a"
          href={oidcStartUrl(safeRedirect(searchParams.get('redirect')))}
          variant="default"
          fullWidth
          leftSection={<IconKey size={18} aria-hidden />}
        >
          {t('button', { label: sso.label ?? 'SSO' })}
        </Button>
      ) : null}
      {sso && showLocal ? (
        <Text size="sm" c="dimmed" ta="center">
          {t('or')}
        </Text>
      ) : null}
    </Stack>
  );
}
