import { SimpleGrid } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconLoader2,
  IconMoonStars,
  type Icon,
} from '@tabler/icons-react';
import {
  DASHBOARD_CATEGORIES,
  EXECUTION_STATUSES,
  type Dashboard,
  type DashboardCategory,
} from '@rota/contract';
import { useFormat } from '../../../lib/format';
import { CATEGORY_COLORS, useExecutionStatusLabels } from '../../activity';
import { useStatusPalette } from '../../status-items';
import { useDashboardTranslation } from '../i18n';
import { StatCard } from './stat-card';

const ICONS: Record<DashboardCategory, Icon> = {
  process: IconLoader2,
  failure: IconAlertTriangle,
  others: IconCircleCheck,
  idle: IconMoonStars,
};

/** Categories (Process, Failure, Others, Idle): how many robots are in each. */
export function CategoryCards({
  categories,
  loading,
}: {
  categories: Dashboard['categories'] | undefined;
  loading: boolean;
}) {
  const t = useDashboardTranslation();
  const format = useFormat();
  // What each card counts follows the client's status items, so the hint names their statuses.
  const palette = useStatusPalette();
  const labels = useExecutionStatusLabels();
  const hintOf = (category: DashboardCategory) => {
    if (category === 'idle') return t('categories.hint.idle');
    const statuses = EXECUTION_STATUSES.filter((s) => palette.category[s] === category);
    if (statuses.length === 0) return t('categories.hint.none');
    return t('categories.hint.statuses', {
      // A client's own label is kept as written; a translated name reads mid-sentence.
      statuses: format.disjunction(
        statuses.map((s) => palette.label[s] ?? labels[s].toLocaleLowerCase(format.lang)),
      ),
    });
  };
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
            hint={hintOf(category)}
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
