import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';

export default function StatusItemsPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('pages.connector.title')} subtitle={t('pages.connector.subtitle')} />;
}
