import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';

export default function TeamsPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('pages.team.title')} subtitle={t('pages.team.subtitle')} />;
}
