import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';

export default function UsersPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('pages.user.title')} subtitle={t('pages.user.subtitle')} />;
}
