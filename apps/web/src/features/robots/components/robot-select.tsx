import { useTranslation } from 'react-i18next';
import type { Robot } from '@rota/contract';
import { EntitySelect, type EntitySelectProps } from '../../../components/entity-select';
import { robotQueryOptions } from '../api/get-robot';
import { robotsQueryOptions } from '../api/list-robots';
import '../i18n';

type RobotSelectProps = Omit<
  EntitySelectProps<Robot>,
  'listQuery' | 'itemQuery' | 'getId' | 'getLabel'
>;

/**
 * Choose a robot of the selected client, searching by name on the server. Labelled "Robô" /
 * "Robot" unless told otherwise; for forms (tasks, schedulings, parameters) and list filters.
 */
export function RobotSelect({ label, placeholder, ...props }: RobotSelectProps) {
  const { t } = useTranslation('robots');
  return (
    <EntitySelect
      label={label ?? t('select.robot')}
      placeholder={placeholder ?? t('select.placeholder')}
      listQuery={(search) =>
        robotsQueryOptions({
          page: 1,
          per_page: 50,
          sort: 'name',
          order: 'asc',
          ...(search ? { search } : {}),
        })
      }
      itemQuery={robotQueryOptions}
      getId={(robot) => robot.rota_robots_id}
      getLabel={(robot) => robot.name}
      {...props}
    />
  );
}
