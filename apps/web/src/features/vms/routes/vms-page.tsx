import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';

export default function VmsPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('pages.vm.title')} subtitle={t('pages.vm.subtitle')} />;
}
