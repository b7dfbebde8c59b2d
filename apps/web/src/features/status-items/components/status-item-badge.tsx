import { Badge, ColorSwatch, Group, Text, useComputedColorScheme } from '@mantine/core';
import { mix, readableOn } from '../../../lib/contrast';

/** The body colours of the two schemes (Mantine's white and dark.7). */
const BODY = { light: '#ffffff', dark: '#242424' } as const;

/**
 * A status as badges show it: the client's colour and label. The colour is the client's
 * choice, so the text is darkened (light scheme) or lightened (dark) just enough to read at
 * 4.5:1 on the badge's tint (issue 16).
 */
export function StatusItemBadge({ color, label }: { color: string; label: string }) {
  const scheme = useComputedColorScheme('light');
  const body = BODY[scheme];
  const background = mix(body, color, scheme === 'light' ? 0.1 : 0.15);
  const text = readableOn(color, [background, body], scheme);
  return (
    <Badge
      variant="light"
      color={color}
      radius="sm"
      tt="none"
      miw="max-content"
      vars={() => ({ root: { '--badge-bg': background, '--badge-color': text } })}
    >
      {label}
    </Badge>
  );
}

/** A colour as a swatch beside its `#rrggbb`. */
export function ColorValue({ color }: { color: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <ColorSwatch color={color} size={16} aria-hidden />
      <Text size="sm" ff="monospace">
        {color}
      </Text>
    </Group>
  );
}
