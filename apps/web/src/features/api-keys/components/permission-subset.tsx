import { Checkbox, Group, Stack, Text } from '@mantine/core';
import {
  PERMISSION_ACTIONS,
  PERMISSION_AREAS,
  PERMISSIONS,
  type Permission,
  type PermissionAction,
  type PermissionArea,
} from '@rota/contract';
import { useApiKeysTranslation } from '../i18n';

/** The permissions of `held` that are real ones (the session may carry others), by area. */
export function heldByArea(
  held: readonly string[],
): Array<[PermissionArea, Array<[PermissionAction, Permission]>]> {
  const own = new Set(held);
  return PERMISSION_AREAS.map((area): [PermissionArea, Array<[PermissionAction, Permission]>] => [
    area,
    PERMISSION_ACTIONS.map((action): [PermissionAction, Permission] => [
      action,
      `${area}.${action}`,
    ]).filter(([, permission]) => own.has(permission)),
  ]).filter(([, actions]) => actions.length > 0);
}

type PermissionSubsetProps = {
  /** What the user holds in the selected client: a key can carry no more. */
  held: readonly string[];
  value: readonly Permission[];
  onChange: (next: Permission[]) => void;
  error?: string;
};

/** Checkboxes for a key's permissions, one group per area, offering only what the user holds. */
export function PermissionSubset({ held, value, onChange, error }: PermissionSubsetProps) {
  const t = useApiKeysTranslation();
  const chosen = new Set(value);
  const toggle = (permission: Permission) => {
    const next = new Set(chosen);
    if (next.has(permission)) next.delete(permission);
    else next.add(permission);
    // In the contract's order, so the body does not depend on the clicks' order.
    onChange(PERMISSIONS.filter((p) => next.has(p)));
  };
  return (
    <Stack gap="xs">
      {heldByArea(held).map(([area, permissions]) => (
        <Stack key={area} gap={4}>
          <Text size="sm" fw={500}>
            {t(`areas.${area}`)}
          </Text>
          <Group gap="md" role="group" aria-label={t(`areas.${area}`)}>
            {permissions.map(([action, permission]) => (
              <Checkbox
                key={permission}
                label={t(`actions.${action}`)}
                checked={chosen.has(permission)}
                onChange={() => toggle(permission)}
              />
            ))}
          </Group>
        </Stack>
      ))}
      {error ? (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
