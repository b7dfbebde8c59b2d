import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';

export default function TasksPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('pages.task.title')} subtitle={t('pages.task.subtitle')} />;
}
