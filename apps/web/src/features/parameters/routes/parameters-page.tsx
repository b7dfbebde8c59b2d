import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';

export default function ParametersPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('pages.parameter.title')} subtitle={t('pages.parameter.subtitle')} />;
}
