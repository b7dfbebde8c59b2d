import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';

export default function SchedulingsPage() {
  const { t } = useTranslation();
  return (
    <PageHeader title={t('pages.scheduling.title')} subtitle={t('pages.scheduling.subtitle')} />
  );
}
