import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';

export default function EnvironmentsPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('pages.env.title')} subtitle={t('pages.env.subtitle')} />;
}
