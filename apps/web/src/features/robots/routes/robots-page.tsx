import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';

export default function RobotsPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('pages.robot.title')} subtitle={t('pages.robot.subtitle')} />;
}
