import { Badge, ColorSwatch, Group, Text } from '@mantine/core';

/** A status as badges show it: the client's colour and label. */
export function StatusItemBadge({ color, label }: { color: string; label: string }) {
  return (
    <Badge variant="light" color={color} radius="sm" tt="none" miw="max-content">
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
