import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';
import { useCan } from '../../auth';
import { TaskFormDrawer } from '../components/task-form-drawer';
import { TasksTable } from '../components/tasks-table';
import '../i18n';

/** `/task`: the client's tasks, with filters and bulk retry/delete; "Nova tarefa" in the header. */
export default function TasksPage() {
  const { t } = useTranslation('tasks');
  const { t: tc } = useTranslation();
  const can = useCan();
  const [opened, { open, close }] = useDisclosure(false);
  const newTask = can('ATIVIDADES.CREATE') ? (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={open}>
      {t('list.new')}
    </Button>
  ) : null;
  return (
    <>
      <PageHeader
        title={tc('pages.task.title')}
        subtitle={tc('pages.task.subtitle')}
        actions={newTask}
      />
      <TasksTable createAction={newTask} />
      <TaskFormDrawer opened={opened} onClose={close} />
    </>
  );
}
