import { Badge, Tooltip, type MantineColor } from '@mantine/core';
import type { LiveStatus } from '../live-connection';
import { useLiveTranslation } from '../i18n';
import { useLiveStatus } from '../use-live-status';

type Shown = 'open' | 'connecting' | 'reconnecting' | 'off';

const COLORS: Record<Shown, MantineColor> = {
  open: 'green',
  connecting: 'gray',
  reconnecting: 'orange',
  off: 'gray',
};

function shownOf(status: LiveStatus): Shown {
  if (status === 'idle' || status === 'stopped') return 'off';
  return status;
}

/** Whether the page follows changes as they happen: "Ao vivo", "Reconectando…". */
export function LiveIndicator() {
  const t = useLiveTranslation();
  const shown = shownOf(useLiveStatus());
  return (
    <Tooltip label={t(`hint.${shown}`)} withArrow multiline w={260}>
      <Badge
        variant="dot"
        color={COLORS[shown]}
        size="lg"
        radius="sm"
        tt="none"
        tabIndex={0}
        role="status"
        style={{ alignSelf: 'center' }}
      >
        {t(`status.${shown}`)}
      </Badge>
    </Tooltip>
  );
}
