import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';

export default function ActivityPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('pages.activity.title')} subtitle={t('pages.activity.subtitle')} />;
}
