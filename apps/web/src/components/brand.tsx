import { Group, Text, ThemeIcon, type MantineBreakpoint } from '@mantine/core';
import { IconRoute } from '@tabler/icons-react';
import { PRODUCT_NAME } from '@rota/contract';

type BrandProps = {
  size?: 'md' | 'xl';
  /** Hide the name on narrow screens (the header at 360 px); the icon stays. */
  nameVisibleFrom?: MantineBreakpoint;
};

/** The product mark: the icon is decoration, the name is the text. */
export function Brand({ size = 'md', nameVisibleFrom }: BrandProps) {
  const large = size === 'xl';
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={large ? 40 : 30} radius="md" variant="filled" aria-hidden>
        <IconRoute size={large ? 24 : 18} stroke={2} />
      </ThemeIcon>
      <Text component="span" fw={800} fz={size} lh={1} visibleFrom={nameVisibleFrom}>
        {PRODUCT_NAME}
      </Text>
    </Group>
  );
}
