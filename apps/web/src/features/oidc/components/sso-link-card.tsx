import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Modal,
  Paper,
  PasswordInput,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconKey } from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { oidcUnlinkSchema, type OidcErrorCode, type OidcUnlink } from '@rota/contract';
import { applyFieldErrors, fieldError } from '../../../lib/form-errors';
import { useFormat } from '../../../lib/format';
import { leaveForProvider, oidcLinkQueryOptions, startOidcLink, useUnlinkOidc } from '../api/link';
import { oidcConfigQueryOptions } from '../api/oidc-config';
import '../link/i18n';

/** The callback's codes are message keys (OIDC_ERROR_CODES); an unknown one reads as a failure. */
function isOidcErrorCode(value: string, known: (key: string) => boolean): value is OidcErrorCode {
  return value.startsWith('oidc_') && known(value);
}

/** The password that proves the account keeps a way in once its provider is gone. */
function UnlinkDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('oidcLink');
  const unlink = useUnlinkOidc();
  const form = useForm<OidcUnlink>({
    resolver: zodResolver(oidcUnlinkSchema),
    defaultValues: { password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const close = () => {
    form.reset();
    onClose();
  };

  async function onSubmit(values: OidcUnlink) {
    try {
      await unlink.mutateAsync(values);
      close();
    } catch (error) {
      // 400: a wrong password; 409: the password form is off, unlinking would lock them out.
      applyFieldErrors(error, ['password'], form.setError, [400, 409]);
    }
  }

  return (
    <Modal opened={opened} onClose={close} title={t('unlinkTitle')} centered>
      <form noValidate onSubmit={(event) => void form.handleSubmit(onSubmit)(event)}>
        <Stack gap="md">
          <Text size="sm">{t('unlinkHint')}</Text>
          <PasswordInput
            label={t('password')}
            autoComplete="current-password"
            data-autofocus
            error={fieldError(errors.password)}
            {...form.register('password')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('cancel')}
            </Button>
            <Button type="submit" color="red" loading={isSubmitting}>
              {t('unlink')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * My account's single sign-on card, when the server has a provider: link one's own account
 * (the provider's page, then back here with `?sso=linked` or `?sso_error=<code>`), or unlink it
 * with the password. An identity links to an existing account only this way, or by a mapping's
 * automatic-linking domains.
 */
export function SsoLinkCard() {
  const { t } = useTranslation('oidcLink');
  const { t: tm, i18n } = useTranslation('messages');
  const format = useFormat();
  const [searchParams, setSearchParams] = useSearchParams();
  const config = useQuery(oidcConfigQueryOptions());
  const enabled = config.data?.enabled === true;
  const status = useQuery({ ...oidcLinkQueryOptions(), enabled });
  const [starting, setStarting] = useState(false);
  const [unlinking, setUnlinking] = useState(false);
  if (!enabled) return null;

  const label = config.data?.label ?? 'SSO';
  const code = searchParams.get('sso_error');
  const failure =
    code === null
      ? null
      : tm(
          isOidcErrorCode(code, (key) => i18n.exists(key, { ns: 'messages' }))
            ? code
            : 'oidc_failed',
        );
  const justLinked = searchParams.get('sso') === 'linked' && status.data?.linked === true;
  const dismiss = () =>
    setSearchParams(
      (params) => {
        params.delete('sso');
        params.delete('sso_error');
        return params;
      },
      { replace: true },
    );

  async function link() {
    setStarting(true);
    try {
      leaveForProvider((await startOidcLink()).url);
    } catch {
      // The client already said why (a popup); the button is usable again.
      setStarting(false);
    }
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} fz="h4">
        {t('title')}
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        {t('hint', { label })}
      </Text>
      {failure ? (
        <Alert
          color="red"
          variant="light"
          title={t('failedTitle')}
          icon={<IconAlertCircle aria-hidden />}
          withCloseButton
          onClose={dismiss}
          mb="md"
        >
          {failure}
        </Alert>
      ) : null}
      {justLinked ? (
        <Alert
          color="teal"
          variant="light"
          icon={<IconCircleCheck aria-hidden />}
          withCloseButton
          onClose={dismiss}
          mb="md"
        >
          {t('linkedNow', { label })}
        </Alert>
      ) : null}
      {status.data ? (
        <Group justify="space-between" align="center" gap="sm">
          <Text size="sm">
            {status.data.linked
              ? t('linked', { label, date: format.dateTime(status.data.linked_at) })
              : t('notLinked')}
          </Text>
          {status.data.linked ? (
            <Button variant="default" color="red" onClick={() => setUnlinking(true)}>
              {t('unlink')}
            </Button>
          ) : (
            <Button
              leftSection={<IconKey size={18} aria-hidden />}
              loading={starting}
              onClick={() => void link()}
            >
              {t('link')}
            </Button>
          )}
        </Group>
      ) : (
        <Skeleton height={36} />
      )}
      <UnlinkDialog opened={unlinking} onClose={() => setUnlinking(false)} />
    </Paper>
  );
}

export default SsoLinkCard;
