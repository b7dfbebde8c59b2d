import { Suspense } from 'react';
import { SimpleGrid, Stack } from '@mantine/core';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { useCurrentUser } from '../../auth';
import { SsoLinkCard } from '../../oidc';
import { PasswordForm } from '../components/password-form';
import { PreferencesForm } from '../components/preferences-form';
import { ProfileForm } from '../components/profile-form';
import { useAccountTranslation } from '../i18n';

/** `/account`: what a signed-in user changes of their own; no permission guards it. */
export default function AccountPage() {
  const t = useAccountTranslation();
  const me = useCurrentUser();
  if (!me.data) return <PageSkeleton />;
  return (
    <>
      <PageHeader title={t('title')} subtitle={t('description')} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="lg">
          {/* Keyed: a name changed elsewhere refills the form. */}
          <ProfileForm key={`${me.data.name}\n${me.data.last_name}`} user={me.data} />
          <PreferencesForm user={me.data} />
        </Stack>
        {/* In a stack, so the card keeps its own height beside the longer column. */}
        <Stack gap="lg">
          <PasswordForm />
          {/* Shown only when the server has a provider. */}
          <Suspense fallback={null}>
            <SsoLinkCard />
          </Suspense>
        </Stack>
      </SimpleGrid>
    </>
  );
}
