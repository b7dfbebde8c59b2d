import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';

export default function RobotFieldsPage() {
  const { t } = useTranslation();
  return (
    <PageHeader title={t('pages.robotField.title')} subtitle={t('pages.robotField.subtitle')} />
  );
}
