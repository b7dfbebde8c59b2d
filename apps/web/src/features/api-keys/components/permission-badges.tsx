import { Badge, Group, Tooltip } from '@mantine/core';
import type { Permission } from '@rota/contract';
import { useApiKeysTranslation } from '../i18n';

/** Badges shown before the rest fold into "+N" (with the full list on hover). */
const SHOWN = 3;

/** A key's permissions: "All" for null, else the first few as badges. */
export function PermissionBadges({ permissions }: { permissions: Permission[] | null }) {
  const t = useApiKeysTranslation();
  if (permissions === null) {
    return (
      <Badge variant="light" color="blue" radius="sm" tt="none" miw="max-content">
        {t('columns.allPermissions')}
      </Badge>
    );
  }
  const rest = permissions.slice(SHOWN);
  return (
    <Group gap={4} wrap="nowrap">
      {permissions.slice(0, SHOWN).map((permission) => (
        <Badge
          key={permission}
          variant="outline"
          color="gray"
          radius="sm"
          tt="none"
          miw="max-content"
        >
          {permission}
        </Badge>
      ))}
      {rest.length > 0 ? (
        <Tooltip label={rest.join(', ')} multiline maw={280} withArrow>
          <Badge
            variant="light"
            color="gray"
            radius="sm"
            tt="none"
            miw="max-content"
            tabIndex={0}
            aria-label={t('columns.morePermissions', { list: rest.join(', ') })}
          >
            +{rest.length}
          </Badge>
        </Tooltip>
      ) : null}
    </Group>
  );
}
