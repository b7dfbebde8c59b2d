import {
  Alert as Callout,
  Badge,
  Button,
  Card,
  Drawer,
  Group,
  Loader,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Alert, AlertDelivery } from '@rota/contract';
import { useFormat } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';
import { alertDeliveriesQueryOptions } from '../api/list-deliveries';
import { useSendAlertTest } from '../api/send-test';
import { useAlertsTranslation } from '../i18n';
import { DeliveryStatusBadge } from './delivery-status-badge';
import { useEventLabel } from './event-labels';
import { relativeTimeBothWays } from './relative-time';

/** The latest deliveries shown (the log is for "did it arrive?", not for an archive). */
const SHOWN = 50;

/** A moment as "em 30 segundos" with the exact local time beside it. */
function When({ value, now }: { value: string | null; now: number }) {
  const format = useFormat();
  if (!value) {
    return (
      <Text span size="sm" c="dimmed">
        —
      </Text>
    );
  }
  return (
    <Text component="time" dateTime={value} size="sm" title={format.dateTime(value)}>
      {relativeTimeBothWays(value, format.lang, now)}
      <Text span size="xs" c="dimmed" style={{ display: 'block', whiteSpace: 'nowrap' }}>
        {format.dateTime(value)}
      </Text>
    </Text>
  );
}

function EventCell({ delivery }: { delivery: AlertDelivery }) {
  const t = useAlertsTranslation();
  const label = useEventLabel();
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm">{label(delivery.event_type)}</Text>
      {delivery.count > 1 ? (
        <Badge size="sm" variant="light" color="gray" radius="sm" tt="none">
          {t('deliveries.count', { count: delivery.count })}
        </Badge>
      ) : null}
    </Group>
  );
}

/** The codes the server keeps of a failure (the transport's own words stay in its log). */
const ERROR_CODES = ['not_delivered', 'destination_not_allowed'] as const;

function ErrorText({ value }: { value: string | null }) {
  const t = useAlertsTranslation();
  const code = ERROR_CODES.find((known) => known === value);
  return (
    <Text size="sm" c={value ? 'red' : 'dimmed'} style={{ wordBreak: 'break-word' }}>
      {code ? t(`deliveries.errors.${code}`) : (value ?? '—')}
    </Text>
  );
}

function DeliveryRows({ rows, now }: { rows: AlertDelivery[]; now: number }) {
  const t = useAlertsTranslation();
  const format = useFormat();
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped verticalSpacing="xs" aria-label={t('deliveries.label')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('deliveries.when')}</Table.Th>
            <Table.Th>{t('deliveries.event')}</Table.Th>
            <Table.Th>{t('deliveries.robot')}</Table.Th>
            <Table.Th>{t('deliveries.status')}</Table.Th>
            <Table.Th ta="right">{t('deliveries.attempts')}</Table.Th>
            <Table.Th ta="right">{t('deliveries.code')}</Table.Th>
            <Table.Th>{t('deliveries.error')}</Table.Th>
            <Table.Th>{t('deliveries.nextTry')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((delivery) => (
            <Table.Tr key={delivery.rota_alert_deliveries_id}>
              <Table.Td>
                <When value={delivery.created_at} now={now} />
              </Table.Td>
              <Table.Td>
                <EventCell delivery={delivery} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{delivery.robot_name ?? '—'}</Text>
              </Table.Td>
              <Table.Td>
                <DeliveryStatusBadge status={delivery.status} />
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm">{format.number(delivery.attempts)}</Text>
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm">{delivery.response_code ?? '—'}</Text>
              </Table.Td>
              <Table.Td maw={240}>
                <ErrorText value={delivery.last_error} />
              </Table.Td>
              <Table.Td>
                <When
                  value={delivery.status === 'pending' ? delivery.next_attempt_at : null}
                  now={now}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** At phone width each delivery is a card: eight columns do not fit 360 px. */
function DeliveryCards({ rows, now }: { rows: AlertDelivery[]; now: number }) {
  const t = useAlertsTranslation();
  const format = useFormat();
  return (
    <Stack gap="xs" role="list" aria-label={t('deliveries.label')}>
      {rows.map((delivery) => (
        <Card key={delivery.rota_alert_deliveries_id} withBorder padding="sm" role="listitem">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <EventCell delivery={delivery} />
            <DeliveryStatusBadge status={delivery.status} />
          </Group>
          <When value={delivery.created_at} now={now} />
          {delivery.robot_name ? <Text size="sm">{delivery.robot_name}</Text> : null}
          <Text size="sm" c="dimmed">
            {t('deliveries.attempts')}: {format.number(delivery.attempts)} · {t('deliveries.code')}:{' '}
            {delivery.response_code ?? '—'}
          </Text>
          {delivery.last_error ? <ErrorText value={delivery.last_error} /> : null}
          {delivery.status === 'pending' && delivery.next_attempt_at ? (
            <Group gap={4} align="flex-start" wrap="nowrap">
              <Text size="sm" c="dimmed">
                {t('deliveries.nextTry')}:
              </Text>
              <When value={delivery.next_attempt_at} now={now} />
            </Group>
          ) : null}
        </Card>
      ))}
    </Stack>
  );
}

type DeliveriesDrawerProps = {
  opened: boolean;
  onClose: () => void;
  alert: Alert | null;
  /** USUARIOS.UPDATE: the "send test" button. */
  canTest: boolean;
};

/**
 * An alert's delivery log, newest first: refetched every 5 s while open (retries fall due with
 * no event to say so) and on `alert` live events; "Enviar teste" reports its one attempt:
 * delivered, or not with the receiver's status when it answered.
 */
export function DeliveriesDrawer({ opened, onClose, alert, canTest }: DeliveriesDrawerProps) {
  const t = useAlertsTranslation();
  const phone = useMediaQuery('(max-width: 48em)');
  const now = useNow(5_000);
  const id = alert?.rota_alerts_id ?? 0;
  const query = useQuery({
    ...alertDeliveriesQueryOptions({ rota_alerts_id: id, page: 1, per_page: SHOWN }),
    enabled: opened && id > 0,
  });
  const sendTest = useSendAlertTest();
  const rows = query.data?.data ?? [];

  async function test() {
    try {
      const { data } = await sendTest.mutateAsync(id);
      if (data.status === 'delivered') {
        notifications.show({
          color: 'teal',
          title: t('deliveries.testDeliveredTitle'),
          message:
            data.response_code !== null
              ? t('deliveries.testDelivered', { code: data.response_code })
              : t('deliveries.testDeliveredNoCode'),
        });
      } else {
        // Only what the user may know: not allowed, or the status the receiver answered.
        let message = t('deliveries.testFailed');
        if (data.last_error === 'destination_not_allowed') {
          message = t('deliveries.testFailedNotAllowed');
        } else if (data.response_code !== null) {
          message = t('deliveries.testFailedStatus', { code: data.response_code });
        }
        notifications.show({
          color: 'red',
          title: t('deliveries.testFailedTitle'),
          message,
        });
      }
    } catch {
      // The API client's popup already said why.
    }
  }

  let body;
  if (query.isPending) {
    body = (
      <Group justify="center" p="lg">
        <Loader size="sm" />
      </Group>
    );
  } else if (query.isError && rows.length === 0) {
    body = (
      <Callout color="red" variant="light">
        {t('deliveries.loadError')}
      </Callout>
    );
  } else if (rows.length === 0) {
    body = (
      <Stack gap={4} align="center" p="lg">
        <Text fw={600}>{t('deliveries.empty')}</Text>
        <Text size="sm" c="dimmed" ta="center">
          {t('deliveries.emptyDescription')}
        </Text>
      </Stack>
    );
  } else if (phone) {
    body = <DeliveryCards rows={rows} now={now} />;
  } else {
    body = <DeliveryRows rows={rows} now={now} />;
  }

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'min(72rem, 92vw)'}
      title={t('deliveries.title', { name: alert?.name ?? '' })}
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            {t('deliveries.refreshing')}
          </Text>
          {canTest ? (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconSend size={16} aria-hidden />}
              loading={sendTest.isPending}
              onClick={() => void test()}
            >
              {t('actions.test')}
            </Button>
          ) : null}
        </Group>
        {body}
      </Stack>
    </Drawer>
  );
}
