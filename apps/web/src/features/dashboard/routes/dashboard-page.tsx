import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';

export default function DashboardPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('pages.dashboard.title')} subtitle={t('pages.dashboard.subtitle')} />;
}
