import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconRoute } from '@tabler/icons-react';
import { PRODUCT_NAME } from '@rota/contract';

/** The product mark: the icon is decoration, the name is the accessible text. */
export function Brand({ size = 'lg' }: { size?: 'md' | 'lg' | 'xl' }) {
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={size === 'xl' ? 40 : 30} radius="md" variant="filled" aria-hidden>
        <IconRoute size={size === 'xl' ? 24 : 18} stroke={2} />
      </ThemeIcon>
      <Text component="span" fw={800} fz={size} lh={1}>
        {PRODUCT_NAME}
      </Text>
    </Group>
  );
}
