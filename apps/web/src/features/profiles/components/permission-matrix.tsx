import { Checkbox, Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  PERMISSION_ACTIONS,
  PERMISSION_AREAS,
  type Permission,
  type PermissionAction,
  type PermissionArea,
} from '@rota/contract';
import {
  actionCoverage,
  allCoverage,
  areaCoverage,
  permissionOf,
  toggleAction,
  toggleAll,
  toggleArea,
  togglePermission,
  type Coverage,
} from './permission-matrix-state';
import classes from './permission-matrix.module.css';
import '../i18n';

type PermissionMatrixProps = {
  value: readonly Permission[];
  onChange: (next: Permission[]) => void;
  disabled?: boolean;
  /** Shown under the matrix (a field error). */
  error?: string;
};

const checkedOf = (c: Coverage) => c === 'all';
const indeterminateOf = (c: Coverage) => c === 'some';

/**
 * A profile's permissions as areas (rows) × actions (columns) of checkboxes. The
 * checkbox before an area grants or revokes its whole row; the one in an action's head, the
 * whole column; the corner one, everything.
 */
export function PermissionMatrix({ value, onChange, disabled, error }: PermissionMatrixProps) {
  const { t } = useTranslation('profiles');
  const areaName = (area: PermissionArea) => t(`areas.${area}`);
  const actionName = (action: PermissionAction) => t(`permissionActions.${action}`);
  const all = allCoverage(value);

  return (
    <Stack gap={6}>
      <Table.ScrollContainer minWidth={480} type="native">
        <Table
          aria-label={t('matrix.label')}
          withTableBorder
          verticalSpacing={6}
          horizontalSpacing="xs"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th className={classes.area}>
                <Group gap="xs" wrap="nowrap">
                  <Checkbox
                    aria-label={t('matrix.toggleAll')}
                    checked={checkedOf(all)}
                    indeterminate={indeterminateOf(all)}
                    onChange={() => onChange(toggleAll(value))}
                    disabled={disabled}
                    size="xs"
                  />
                  <Text size="xs" fw={700}>
                    {t('matrix.area')}
                  </Text>
                </Group>
              </Table.Th>
              {PERMISSION_ACTIONS.map((action) => {
                const c = actionCoverage(value, action);
                return (
                  <Table.Th key={action} ta="center">
                    <Stack gap={4} align="center">
                      <Text size="xs" fw={700}>
                        {actionName(action)}
                      </Text>
                      <Checkbox
                        aria-label={t('matrix.toggleAction', { action: actionName(action) })}
                        checked={checkedOf(c)}
                        indeterminate={indeterminateOf(c)}
                        onChange={() => onChange(toggleAction(value, action))}
                        disabled={disabled}
                        size="xs"
                      />
                    </Stack>
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {PERMISSION_AREAS.map((area) => {
              const c = areaCoverage(value, area);
              return (
                <Table.Tr key={area}>
                  <Table.Th scope="row" fw={400} className={classes.area}>
                    <Group gap="xs" wrap="nowrap" align="flex-start">
                      <Checkbox
                        aria-label={t('matrix.toggleArea', { area: areaName(area) })}
                        checked={checkedOf(c)}
                        indeterminate={indeterminateOf(c)}
                        onChange={() => onChange(toggleArea(value, area))}
                        disabled={disabled}
                        size="xs"
                        mt={2}
                      />
                      <Stack gap={0} miw={0}>
                        <Text size="sm" fw={500}>
                          {areaName(area)}
                        </Text>
                        <Text size="xs" c="dimmed" ff="monospace">
                          {area}
                        </Text>
                      </Stack>
                    </Group>
                  </Table.Th>
                  {PERMISSION_ACTIONS.map((action) => {
                    const permission = permissionOf(area, action);
                    return (
                      <Table.Td key={action} ta="center">
                        <Checkbox
                          aria-label={t('matrix.cell', {
                            area: areaName(area),
                            action: actionName(action),
                          })}
                          checked={value.includes(permission)}
                          onChange={() => onChange(togglePermission(value, permission))}
                          disabled={disabled}
                          style={{ display: 'inline-block' }}
                        />
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed">
        {t('matrix.summary', {
          count: value.length,
          total: PERMISSION_AREAS.length * PERMISSION_ACTIONS.length,
        })}
      </Text>
      {error ? (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
