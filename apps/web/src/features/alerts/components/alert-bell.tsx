import { useId, useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Divider,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
  ThemeIcon,
  UnstyledButton,
} from '@mantine/core';
import {
  IconAlarm,
  IconAlertTriangle,
  IconBell,
  IconBug,
  IconCalendarX,
  IconClockExclamation,
  IconHourglassHigh,
  IconPlayerPause,
  IconServer,
  IconServerOff,
  type Icon,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { AlertEventType, AlertFeedItem } from '@rota/contract';
import { useFormat } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';
import { useCan } from '../../auth';
import { alertFeedQueryOptions } from '../api/get-feed';
import { useMarkAlertsSeen } from '../api/mark-seen';
import { useAlertsTranslation } from '../i18n';
import { ALERTS_PATH } from '../paths';
import { feedLink, useFeedText } from './event-labels';
import { relativeTimeBothWays } from './relative-time';

const ICONS: Record<AlertEventType, { icon: Icon; color: string }> = {
  'execution.application_error': { icon: IconBug, color: 'red' },
  'execution.business_error': { icon: IconAlertTriangle, color: 'orange' },
  'execution.timeout': { icon: IconClockExclamation, color: 'orange' },
  'execution.stalled': { icon: IconPlayerPause, color: 'yellow' },
  'agent.lost': { icon: IconServerOff, color: 'red' },
  'agent.back': { icon: IconServer, color: 'teal' },
  'task.at_risk': { icon: IconHourglassHigh, color: 'yellow' },
  'task.breached': { icon: IconAlarm, color: 'red' },
  'scheduling.missed': { icon: IconCalendarX, color: 'orange' },
};

/** More than this reads "99+" on the badge. */
const MAX_COUNT = 99;

function FeedEntry({
  item,
  unread,
  now,
  onOpen,
}: {
  item: AlertFeedItem;
  unread: boolean;
  now: number;
  onOpen: () => void;
}) {
  const t = useAlertsTranslation();
  const format = useFormat();
  const text = useFeedText()(item);
  const link = feedLink(item);
  const { icon: EventIcon, color } = ICONS[item.type] ?? { icon: IconBell, color: 'gray' };
  const content = (
    <Group gap="sm" wrap="nowrap" align="flex-start" p="xs">
      <ThemeIcon variant="light" color={color} size="md" radius="xl" aria-hidden>
        <EventIcon size={16} />
      </ThemeIcon>
      <Box miw={0} style={{ flex: 1 }}>
        <Text size="sm" fw={unread ? 600 : 400} style={{ wordBreak: 'break-word' }}>
          {text}
        </Text>
        <Text
          component="time"
          dateTime={item.occurred_at}
          size="xs"
          c="dimmed"
          title={format.dateTime(item.occurred_at)}
        >
          {relativeTimeBothWays(
            item.occurred_at,
            format.lang,
            Math.max(now, Date.parse(item.occurred_at)),
          )}
        </Text>
      </Box>
      {unread ? (
        <Badge size="xs" color="blue" variant="filled" circle aria-label={t('bell.unread')}>
          {' '}
        </Badge>
      ) : null}
    </Group>
  );
  return (
    <li data-unread={unread || undefined}>
      {link ? (
        <UnstyledButton
          component={Link}
          to={link}
          onClick={onOpen}
          w="100%"
          style={{ borderRadius: 'var(--mantine-radius-sm)', display: 'block' }}
          bg={unread ? 'var(--mantine-primary-color-light)' : undefined}
        >
          {content}
        </UnstyledButton>
      ) : (
        <Box bg={unread ? 'var(--mantine-primary-color-light)' : undefined}>{content}</Box>
      )}
    </li>
  );
}

/**
 * The header's bell: the selected client's latest alerts with an unread count. Opening it marks
 * them read (the entries that were unread stay marked while it is open); `alert` live events
 * refresh it.
 */
export function AlertBell() {
  const t = useAlertsTranslation();
  const can = useCan();
  const now = useNow(30_000);
  const titleId = useId();
  const [opened, setOpened] = useState(false);
  // The ids unread when the popover opened: marking them read must not unmark them on screen.
  const [shownUnread, setShownUnread] = useState<ReadonlySet<number>>(new Set());
  const feed = useQuery(alertFeedQueryOptions());
  const markSeen = useMarkAlertsSeen();
  const items = feed.data?.data ?? [];
  const unread = feed.data?.unread ?? 0;

  function open() {
    setShownUnread(
      new Set(items.filter((item) => item.unread).map((item) => item.rota_alert_events_id)),
    );
    setOpened(true);
    const newest = items[0]?.rota_alert_events_id;
    if (unread > 0 && newest !== undefined) markSeen.mutate(newest);
  }

  const count = unread > MAX_COUNT ? `${MAX_COUNT}+` : String(unread);
  const label = unread > 0 ? t('bell.labelUnread', { count: unread }) : t('bell.label');

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      onClose={() => setOpened(false)}
      position="bottom-end"
      width="min(360px, calc(100vw - 16px))"
      shadow="md"
      withinPortal
      trapFocus
    >
      {/* The target is the button itself: on the Indicator's div, aria-expanded is not allowed. */}
      <Indicator
        label={count}
        size={16}
        color="red"
        offset={4}
        disabled={unread === 0}
        styles={{ indicator: { fontSize: 10, fontWeight: 700, paddingInline: 4 } }}
      >
        <Popover.Target>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={label}
            aria-haspopup="dialog"
            aria-expanded={opened}
            onClick={() => (opened ? setOpened(false) : open())}
          >
            <IconBell size={18} aria-hidden />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown p={0} aria-labelledby={titleId}>
        <Group justify="space-between" px="sm" py="xs">
          <Text fw={600} size="sm" id={titleId}>
            {t('bell.title')}
          </Text>
          {can('USUARIOS.LIST') ? (
            <Anchor component={Link} to={ALERTS_PATH} size="xs" onClick={() => setOpened(false)}>
              {t('bell.manage')}
            </Anchor>
          ) : null}
        </Group>
        <Divider />
        {feed.isError && items.length === 0 ? (
          <Text size="sm" c="red" p="md">
            {t('bell.loadError')}
          </Text>
        ) : items.length === 0 ? (
          <Text size="sm" c="dimmed" p="md" ta="center">
            {t('bell.empty')}
          </Text>
        ) : (
          <ScrollArea.Autosize mah="min(420px, 70vh)" type="auto">
            <Stack gap={2} p={4} component="ul" m={0} style={{ listStyle: 'none' }}>
              {items.map((item) => (
                <FeedEntry
                  key={item.rota_alert_events_id}
                  item={item}
                  unread={item.unread || shownUnread.has(item.rota_alert_events_id)}
                  now={now}
                  onOpen={() => setOpened(false)}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
