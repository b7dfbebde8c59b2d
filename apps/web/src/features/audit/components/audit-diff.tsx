import { useState } from 'react';
import { Badge, Code, Group, Stack, Switch, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { auditDiffRows, type DiffRow, type DiffStatus } from './audit-diff-rows';
import '../i18n';

const STATUS_COLORS: Record<Exclude<DiffStatus, 'same'>, string> = {
  added: 'teal',
  removed: 'red',
  changed: 'yellow',
};

function AuditValue({ value }: { value: unknown }) {
  const { t } = useTranslation();
  if (value === null || value === undefined) {
    return (
      <Text component="span" size="sm" c="dimmed">
        —
      </Text>
    );
  }
  if (typeof value === 'boolean') {
    return <Text size="sm">{value ? t('common.boolean.yes') : t('common.boolean.no')}</Text>;
  }
  if (typeof value === 'object') {
    return (
      <Code block fz="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {JSON.stringify(value, null, 2)}
      </Code>
    );
  }
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
      {String(value)}
    </Text>
  );
}

/**
 * An audit record's before and after, field by field. On an update the changed fields are
 * highlighted and marked in words (the colour alone says nothing to a screen reader); a create
 * shows only "after", a delete only "before".
 */
export function AuditDiff({ before, after }: { before: unknown; after: unknown }) {
  const { t } = useTranslation('audit');
  const [onlyChanged, setOnlyChanged] = useState(false);
  const rows = auditDiffRows(before, after);
  const withBefore = before !== null && before !== undefined;
  const withAfter = after !== null && after !== undefined;
  const comparing = withBefore && withAfter;

  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('diff.none')}
      </Text>
    );
  }

  const changedCount = rows.filter((row) => row.status !== 'same').length;
  const shown = comparing && onlyChanged ? rows.filter((row) => row.status !== 'same') : rows;
  const statusLabel = (status: Exclude<DiffStatus, 'same'>) => t(`diff.status.${status}`);

  const renderRow = (row: DiffRow) => {
    const marked = comparing && row.status !== 'same';
    return (
      <Table.Tr
        key={row.key || 'value'}
        data-changed={marked ? 'true' : undefined}
        bg={marked ? 'var(--mantine-color-yellow-light)' : undefined}
      >
        <Table.Td style={{ verticalAlign: 'top' }}>
          <Stack gap={4} align="flex-start">
            <Code fz="xs">{row.key || t('diff.value')}</Code>
            {marked && row.status !== 'same' ? (
              <Badge
                size="xs"
                variant="light"
                color={STATUS_COLORS[row.status]}
                radius="sm"
                tt="none"
              >
                {statusLabel(row.status)}
              </Badge>
            ) : null}
          </Stack>
        </Table.Td>
        {withBefore ? (
          <Table.Td style={{ verticalAlign: 'top' }}>
            <AuditValue value={row.before} />
          </Table.Td>
        ) : null}
        {withAfter ? (
          <Table.Td style={{ verticalAlign: 'top' }}>
            <AuditValue value={row.after} />
          </Table.Td>
        ) : null}
      </Table.Tr>
    );
  };

  return (
    <Stack gap="sm">
      {comparing ? (
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed" role="status">
            {t('diff.changedCount', { count: changedCount })}
          </Text>
          <Switch
            size="sm"
            label={t('diff.onlyChanged')}
            checked={onlyChanged}
            onChange={(event) => setOnlyChanged(event.currentTarget.checked)}
          />
        </Group>
      ) : null}
      <Table.ScrollContainer minWidth={320} type="native">
        <Table aria-label={t('diff.label')} verticalSpacing="xs" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w="30%">{t('diff.field')}</Table.Th>
              {withBefore ? <Table.Th>{t('diff.before')}</Table.Th> : null}
              {withAfter ? <Table.Th>{t('diff.after')}</Table.Th> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{shown.map(renderRow)}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
