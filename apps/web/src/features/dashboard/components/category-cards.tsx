import { SimpleGrid } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconLoader2,
  IconMoonStars,
  type Icon,
} from '@tabler/icons-react';
import { DASHBOARD_CATEGORIES, type Dashboard, type DashboardCategory } from '@rota/contract';
import { useFormat } from '../../../lib/format';
import { CATEGORY_COLORS } from '../../activity/components/execution-status';
import { useDashboardTranslation } from '../i18n';
import { StatCard } from './stat-card';

const ICONS: Record<DashboardCategory, Icon> = {
  process: IconLoader2,
  failure: IconAlertTriangle,
  others: IconCircleCheck,
  idle: IconMoonStars,
};

/** SPEC §4 categories (Process, Failure, Others, Idle): how many robots are in each. */
export function CategoryCards({
  categories,
  loading,
}: {
  categories: Dashboard['categories'] | undefined;
  loading: boolean;
}) {
  const t = useDashboardTranslation();
  const format = useFormat();
  return (
    <SimpleGrid
      component="section"
      aria-label={t('categories.label')}
      cols={{ base: 2, md: 4 }}
      spacing={{ base: 'xs', sm: 'md' }}
    >
      {DASHBOARD_CATEGORIES.map((category) => {
        const Icon = ICONS[category];
        const value = categories?.[category];
        return (
          <StatCard
            key={category}
            label={t(`categories.${category}`)}
            hint={t(`categories.hint.${category}`)}
            value={typeof value === 'number' ? format.number(value) : '—'}
            loading={loading}
            color={CATEGORY_COLORS[category]}
            icon={<Icon size={16} />}
          />
        );
      })}
    </SimpleGrid>
  );
}
