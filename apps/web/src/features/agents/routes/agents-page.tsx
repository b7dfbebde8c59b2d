import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';

export default function AgentsPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('pages.node.title')} subtitle={t('pages.node.subtitle')} />;
}
