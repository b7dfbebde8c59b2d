import { ActionIcon, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** A copy-to-clipboard icon whose tooltip says `copied` for two seconds after a click. */
export function CopyIcon({
  value,
  label,
  copied,
}: {
  value: string;
  label: string;
  copied: string;
}) {
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied: done, copy }) => (
        <Tooltip label={done ? copied : label} withArrow position="left">
          <ActionIcon
            variant="subtle"
            color={done ? 'teal' : 'gray'}
            onClick={copy}
            aria-label={label}
          >
            {done ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}
