import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconShieldCheck, IconShieldLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { DateTimeText } from '../../../components/date-time';
import { PageHeader } from '../../../components/page-header';
import { errorText } from '../../../lib/http';
import { showSuccessPopup } from '../../../lib/notify';
import { useConfirmEnrolment } from '../api/confirm-enrolment';
import { useDisableMfa } from '../api/disable-mfa';
import { mfaStatusQueryOptions } from '../api/mfa-status';
import { useRegenerateRecoveryCodes } from '../api/regenerate-recovery-codes';
import { useStartEnrolment } from '../api/start-enrolment';
import { CodeConfirmModal } from '../components/code-confirm-modal';
import { EnrolmentPanel } from '../components/enrolment-panel';
import { RecoveryCodesPanel } from '../components/recovery-codes-panel';
import { useMfaTranslation } from '../i18n';

type Modal = 'codes' | 'disable' | null;

/**
 * `/account/two-step`: the user's own second factor. Off: set it up (QR code, one
 * code, recovery codes once). On: since when, codes left, new codes, turn off (both ask a code).
 */
export default function MfaPage() {
  const t = useMfaTranslation();
  const status = useQuery(mfaStatusQueryOptions());
  const start = useStartEnrolment();
  const confirm = useConfirmEnrolment();
  const regenerate = useRegenerateRecoveryCodes();
  const disable = useDisableMfa();
  const [enrolling, setEnrolling] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [modal, setModal] = useState<Modal>(null);

  function beginEnrolment() {
    setEnrolling(true);
    start.reset();
    start.mutate();
  }

  let body;
  if (codes) {
    body = (
      <Card withBorder radius="md" p="lg">
        <Title order={2} fz="h4" mb="md">
          {t('codes.heading')}
        </Title>
        <RecoveryCodesPanel codes={codes} onDone={() => setCodes(null)} />
      </Card>
    );
  } else if (status.isPending) {
    body = null;
  } else if (status.isError) {
    body = (
      <Alert color="red" variant="light">
        {errorText(status.error)}
      </Alert>
    );
  } else if (enrolling && !status.data.enabled) {
    body = (
      <Card withBorder radius="md" p="lg" maw={520}>
        <Title order={2} fz="h4" mb="md">
          {t('enrol.title')}
        </Title>
        <EnrolmentPanel
          enrolment={start.data}
          loadError={start.isError ? errorText(start.error) : null}
          onConfirm={async (code) => {
            const answer = await confirm.mutateAsync({ code });
            setEnrolling(false);
            start.reset();
            setCodes(answer.recovery_codes);
            showSuccessPopup(t('status.turnedOn'));
          }}
        />
        <Group justify="flex-end" mt="md">
          <Button variant="subtle" onClick={() => setEnrolling(false)}>
            {t('enrol.cancel')}
          </Button>
        </Group>
      </Card>
    );
  } else if (!status.data.enabled) {
    body = (
      <Card withBorder radius="md" p="lg" maw={640}>
        <Group gap="sm" mb="xs">
          <IconShieldLock size={22} aria-hidden />
          <Title order={2} fz="h4">
            {t('status.offTitle')}
          </Title>
          <Badge color="gray" variant="light">
            {t('status.off')}
          </Badge>
        </Group>
        <Text size="sm" mb="md">
          {status.data.required ? t('status.offRequired') : t('status.offDescription')}
        </Text>
        <Button onClick={beginEnrolment}>{t('status.turnOn')}</Button>
      </Card>
    );
  } else {
    const data = status.data;
    body = (
      <Card withBorder radius="md" p="lg" maw={640}>
        <Group gap="sm" mb="md">
          <IconShieldCheck size={22} aria-hidden color="var(--mantine-color-teal-6)" />
          <Title order={2} fz="h4">
            {t('status.onTitle')}
          </Title>
          <Badge color="teal" variant="light">
            {t('status.on')}
          </Badge>
        </Group>
        <Stack gap={6} mb="lg">
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('status.since')}
            </Text>
            <DateTimeText value={data.enabled_at} />
          </Group>
          <Text size="sm">{t('status.codesLeft', { count: data.recovery_codes_left })}</Text>
        </Stack>
        <Group gap="sm">
          <Button variant="default" onClick={() => setModal('codes')}>
            {t('status.newCodes')}
          </Button>
          <Button
            color="red"
            variant="light"
            disabled={data.required}
            onClick={() => setModal('disable')}
            aria-describedby={data.required ? 'mfa-required-hint' : undefined}
          >
            {t('status.turnOff')}
          </Button>
        </Group>
        {data.required ? (
          <Text id="mfa-required-hint" size="xs" c="dimmed" mt="xs">
            {t('status.requiredHint')}
          </Text>
        ) : null}
      </Card>
    );
  }

  return (
    <>
      <PageHeader title={t('page.title')} subtitle={t('page.subtitle')} />
      {body}
      <CodeConfirmModal
        opened={modal === 'codes'}
        onClose={() => setModal(null)}
        title={t('status.newCodesTitle')}
        description={t('status.newCodesDescription')}
        confirmLabel={t('status.newCodesConfirm')}
        onConfirm={async (code) => {
          const answer = await regenerate.mutateAsync({ code });
          setCodes(answer.recovery_codes);
        }}
      />
      <CodeConfirmModal
        opened={modal === 'disable'}
        onClose={() => setModal(null)}
        title={t('status.turnOffTitle')}
        description={t('status.turnOffDescription')}
        confirmLabel={t('status.turnOffConfirm')}
        confirmColor="red"
        onConfirm={async (code) => {
          const answer = await disable.mutateAsync({ code });
          showSuccessPopup(answer.message);
        }}
      />
    </>
  );
}
