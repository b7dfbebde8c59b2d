import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { RobotField } from '@rota/contract';
import { PageHeader } from '../../../components/page-header';
import { useDialog } from '../../../lib/use-dialog';
import { useCan } from '../../auth';
import { RobotFieldFormDrawer } from '../components/robot-field-form-drawer';
import { RobotFieldsTable } from '../components/robot-fields-table';
import '../i18n';

/** `/robot/field`: every field of the client's robots, filtered by robot. */
export default function RobotFieldsPage() {
  const { t } = useTranslation('robots');
  const { t: tc } = useTranslation();
  const can = useCan();
  const drawer = useDialog<RobotField | null>();
  const newField = can('ROBOS.CREATE') ? (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => drawer.open(null)}>
      {t('fields.new')}
    </Button>
  ) : null;
  return (
    <>
      <PageHeader
        title={tc('pages.robotField.title')}
        subtitle={tc('pages.robotField.subtitle')}
        actions={newField}
      />
      <RobotFieldsTable createAction={newField} onEdit={(field) => drawer.open(field)} />
      <RobotFieldFormDrawer opened={drawer.opened} onClose={drawer.close} field={drawer.target} />
    </>
  );
}
