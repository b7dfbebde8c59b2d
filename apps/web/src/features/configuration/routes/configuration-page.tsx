import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';

export default function ConfigurationPage() {
  const { t } = useTranslation();
  return (
    <PageHeader
      title={t('pages.configuration.title')}
      subtitle={t('pages.configuration.subtitle')}
    />
  );
}
