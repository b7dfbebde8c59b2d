import { Badge, Tabs } from '@mantine/core';
import { IconInbox, IconShieldLock, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { Profile, User } from '@rota/contract';
import { CreateButton } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { useDialog } from '../../../lib/use-dialog';
import { useCan } from '../../auth';
import { useCurrentUser } from '../../auth';
import { useIsPlatformAdmin } from '../../clients';
import { ProfilesTab } from '../../profiles';
import { accessRequestsQueryOptions } from '../api/list-access-requests';
import { AccessRequestsTab } from '../components/access-requests-tab';
import { UsersTab } from '../components/users-tab';
import '../i18n';

const TABS = ['users', 'profiles', 'requests'] as const;
type UsersPageTab = (typeof TABS)[number];

/** Pending requests, for the count beside the tab's name. */
function usePendingRequests(enabled: boolean) {
  const query = useQuery({
    ...accessRequestsQueryOptions({ page: 1, per_page: 1, status: 'pending' }),
    enabled,
  });
  return query.data?.meta?.total ?? 0;
}

/**
 * `/user`: Users | Profiles, and for platform administrators the access requests. Each tab keeps
 * its list's state in the URL (`?tab=profiles&search=…`); a new tab starts from its defaults.
 */
export default function UsersPage() {
  const { t } = useTranslation('users');
  const { t: tp } = useTranslation('profiles');
  const { t: tc } = useTranslation();
  const can = useCan();
  const { data: me } = useCurrentUser();
  const { isPlatformAdmin, isPending: adminPending } = useIsPlatformAdmin(me);
  const [params, setParams] = useSearchParams();
  const userDrawer = useDialog<User | null>();
  const profileDrawer = useDialog<Profile | null>();
  const pending = usePendingRequests(isPlatformAdmin);

  const requested = params.get('tab') as UsersPageTab | null;
  const available = TABS.filter((tab) => tab !== 'requests' || isPlatformAdmin);
  const tab: UsersPageTab = requested && available.includes(requested) ? requested : 'users';

  const setTab = (next: UsersPageTab, extra: Record<string, string> = {}) =>
    setParams(
      () => {
        const search = new URLSearchParams(extra);
        if (next !== 'users') search.set('tab', next);
        return search;
      },
      { preventScrollReset: true },
    );

  const canCreate = can('USUARIOS.CREATE');
  const action =
    tab === 'users' && canCreate ? (
      <CreateButton onClick={() => userDrawer.open(null)}>{t('list.new')}</CreateButton>
    ) : tab === 'profiles' && canCreate ? (
      <CreateButton onClick={() => profileDrawer.open(null)}>{tp('list.new')}</CreateButton>
    ) : null;

  return (
    <>
      <PageHeader
        title={tc('pages.user.title')}
        subtitle={tc('pages.user.subtitle')}
        actions={action}
      />
      {/* A shared link to the requests waits to learn whether they may be shown. */}
      {me && !(requested === 'requests' && adminPending) ? (
        <Tabs
          value={tab}
          onChange={(value) => value && setTab(value as UsersPageTab)}
          keepMounted={false}
        >
          <Tabs.List mb="lg">
            <Tabs.Tab value="users" leftSection={<IconUsers size={16} aria-hidden />}>
              {t('tabs.users')}
            </Tabs.Tab>
            <Tabs.Tab value="profiles" leftSection={<IconShieldLock size={16} aria-hidden />}>
              {t('tabs.profiles')}
            </Tabs.Tab>
            {isPlatformAdmin ? (
              <Tabs.Tab
                value="requests"
                leftSection={<IconInbox size={16} aria-hidden />}
                rightSection={
                  pending > 0 ? (
                    <Badge
                      size="xs"
                      circle
                      color="yellow"
                      aria-label={t('tabs.pending', { count: pending })}
                    >
                      {pending}
                    </Badge>
                  ) : null
                }
              >
                {t('tabs.requests')}
              </Tabs.Tab>
            ) : null}
          </Tabs.List>
          <Tabs.Panel value="users">
            <UsersTab me={me} drawer={userDrawer} />
          </Tabs.Panel>
          <Tabs.Panel value="profiles">
            <ProfilesTab
              drawer={profileDrawer}
              onShowUsers={(profile) =>
                setTab('users', { profiles_id: String(profile.profiles_id) })
              }
            />
          </Tabs.Panel>
          {isPlatformAdmin ? (
            <Tabs.Panel value="requests">
              <AccessRequestsTab me={me} />
            </Tabs.Panel>
          ) : null}
        </Tabs>
      ) : (
        <PageSkeleton />
      )}
    </>
  );
}
