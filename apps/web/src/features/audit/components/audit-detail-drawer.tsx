import { Badge, Code, Drawer, Stack, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { AuditLog } from '@rota/contract';
import { DetailList } from '../../../components/detail-list';
import { useFormat } from '../../../lib/format';
import { AUDIT_ACTION_COLORS } from './audit-labels';
import { AuditDiff } from './audit-diff';
import { isAuditAction, useAuditLabels } from './use-audit-labels';
import '../i18n';

type AuditDetailDrawerProps = {
  opened: boolean;
  onClose: () => void;
  record: AuditLog | null;
};

/** One record of the audit log, read only: who did what, when, and what it changed. */
export function AuditDetailDrawer({ opened, onClose, record }: AuditDetailDrawerProps) {
  const { t } = useTranslation('audit');
  const { t: tc } = useTranslation();
  const format = useFormat();
  const labels = useAuditLabels();
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title={record ? t('detail.title', { id: record.audit_logs_id }) : ''}
      position="right"
      size={phone ? '100%' : 'lg'}
      padding="lg"
      closeButtonProps={{ 'aria-label': tc('common.actions.close') }}
    >
      {record ? (
        <Stack gap="lg">
          <DetailList
            items={[
              { label: t('columns.when'), value: format.dateTime(record.created_at) },
              { label: t('columns.who'), value: record.user_name ?? t('system') },
              {
                label: t('columns.action'),
                value: (
                  <Badge
                    variant="light"
                    radius="sm"
                    tt="none"
                    color={
                      isAuditAction(record.action) ? AUDIT_ACTION_COLORS[record.action] : 'gray'
                    }
                  >
                    {labels.action(record.action)}
                  </Badge>
                ),
              },
              { label: t('columns.entity'), value: labels.entity(record.entity) },
              { label: t('detail.entityId'), value: record.entity_id },
              { label: t('detail.ip'), value: record.ip },
              {
                label: t('detail.requestId'),
                value: record.request_id ? <Code>{record.request_id}</Code> : null,
                wide: true,
              },
            ]}
          />
          <Stack gap="xs">
            <Title order={3} fz="h5">
              {t('detail.changes')}
            </Title>
            <AuditDiff before={record.before} after={record.after} />
          </Stack>
        </Stack>
      ) : null}
    </Drawer>
  );
}
