import { Alert, Badge, Button, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { SessionMethod, UserSession } from '@rota/contract';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ListFooter, LoadingRows, useLastPageWhenPastTheEnd } from '../../../components/data-table';
import { DateTimeText } from '../../../components/date-time';
import { PageHeader } from '../../../components/page-header';
import { errorText } from '../../../lib/http';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useNow } from '../../../lib/use-now';
import { TimeAgo } from '../../api-keys';
import { sessionsQueryOptions } from '../api/list-sessions';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions';
import { useRevokeSession } from '../api/revoke-session';
import { summariseUserAgent } from '../components/user-agent';
import { useSessionsTranslation } from '../i18n';

type T = ReturnType<typeof useSessionsTranslation>;

/** "Chrome on Linux", "API client", or the raw agent when nothing matched. */
export function describeUserAgent(t: T, userAgent: string | null): string {
  const summary = summariseUserAgent(userAgent);
  if (summary.kind === 'api') return t('agent.api');
  if (summary.kind === 'unknown') return summary.raw ?? t('agent.unknown');
  return summary.os
    ? t('agent.browserOn', { browser: summary.browser, os: summary.os })
    : summary.browser;
}

const METHOD_KEYS: Record<SessionMethod, `method.${SessionMethod}`> = {
  password: 'method.password',
  password_totp: 'method.password_totp',
  recovery_code: 'method.recovery_code',
  oidc: 'method.oidc',
};

/**
 * `/account/sessions`: the user's own sessions: where and how each signed in, when it
 * was last used; any other one can be signed out, or all of them at once. Paged (a script that
 * signs in with a password may hold hundreds); this one leads the first page.
 */
export default function SessionsPage() {
  const t = useSessionsTranslation();
  const now = useNow(30_000);
  const list = useListState();
  const query = useQuery(sessionsQueryOptions({ page: list.page, per_page: list.perPage }));
  const revoke = useDialog<UserSession>();
  const revokeSession = useRevokeSession();
  const others = useDialog<true>();
  const revokeOthers = useRevokeOtherSessions();
  const sessions = query.data?.data ?? [];
  // This session is one of them; any beyond it may be on another page.
  const hasOthers = (query.data?.meta.total ?? 0) > 1;
  // The last session of the last page signed out: go to the page before.
  useLastPageWhenPastTheEnd(list, query.data);

  const rows = sessions.map((session) => {
    const agent = describeUserAgent(t, session.user_agent);
    return (
      <Table.Tr key={session.sessions_id}>
        <Table.Td>
          {/* Wraps on a phone rather than cutting the badge short. */}
          <Group gap={6}>
            <Text size="sm" fw={600} title={session.user_agent ?? undefined}>
              {agent}
            </Text>
            {session.current ? (
              <Badge
                size="xs"
                variant="light"
                color="teal"
                radius="sm"
                tt="none"
                style={{ flexShrink: 0 }}
              >
                {t('list.thisDevice')}
              </Badge>
            ) : null}
          </Group>
        </Table.Td>
        <Table.Td>
          <Text size="sm" ff="monospace">
            {session.ip ?? '—'}
          </Text>
        </Table.Td>
        <Table.Td>
          <DateTimeText value={session.created_at} />
        </Table.Td>
        <Table.Td>
          <TimeAgo value={session.last_used_at} now={now} empty={t('list.notUsed')} />
        </Table.Td>
        <Table.Td>
          <Text size="sm">{t(METHOD_KEYS[session.method])}</Text>
        </Table.Td>
        <Table.Td ta="right">
          {session.current ? null : (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              leftSection={<IconLogout size={14} aria-hidden />}
              aria-label={t('list.signOutOne', { agent })}
              onClick={() => revoke.open(session)}
            >
              {t('list.signOut')}
            </Button>
          )}
        </Table.Td>
      </Table.Tr>
    );
  });

  return (
    <>
      <PageHeader
        title={t('page.title')}
        subtitle={t('page.subtitle')}
        actions={
          <Button
            color="red"
            variant="light"
            disabled={!hasOthers}
            onClick={() => others.open(true)}
          >
            {t('list.signOutOthers')}
          </Button>
        }
      />
      {query.isError ? (
        <Alert color="red" variant="light">
          {errorText(query.error)}
        </Alert>
      ) : (
        <Stack gap="xs">
          {/* A phone scrolls the table sideways rather than squeezing its columns. */}
          {query.isPending ? (
            <LoadingRows columns={6} rows={3} />
          ) : (
            <Table.ScrollContainer minWidth={760}>
              <Table verticalSpacing="sm" aria-label={t('list.label')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('columns.browser')}</Table.Th>
                    <Table.Th>{t('columns.address')}</Table.Th>
                    <Table.Th>{t('columns.created')}</Table.Th>
                    <Table.Th>{t('columns.lastUsed')}</Table.Th>
                    <Table.Th>{t('columns.method')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('columns.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>{rows}</Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {query.data ? <ListFooter meta={query.data.meta} list={list} /> : null}
        </Stack>
      )}
      <ConfirmDialog
        opened={revoke.opened}
        onClose={revoke.close}
        title={t('revoke.title', {
          agent: revoke.target ? describeUserAgent(t, revoke.target.user_agent) : '',
        })}
        confirmLabel={t('revoke.confirm')}
        confirmColor="red"
        onConfirm={() => revoke.target && revokeSession.mutateAsync(revoke.target.sessions_id)}
      >
        {t('revoke.description')}
      </ConfirmDialog>
      <ConfirmDialog
        opened={others.opened}
        onClose={others.close}
        title={t('revokeOthers.title')}
        confirmLabel={t('revokeOthers.confirm')}
        confirmColor="red"
        onConfirm={() => revokeOthers.mutateAsync()}
      >
        {t('revokeOthers.description')}
      </ConfirmDialog>
    </>
  );
}
