import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { EXECUTION_STATUSES, type Dashboard } from '@rota/contract';
import { useFormat } from '../../../lib/format';
import { useExecutionStatusLabels } from '../../activity';
import { useStatusPalette } from '../../status-items';

/**
 * Executions per day, stacked by status (its own chunk, with recharts, loaded only by the
 * dashboard). Days as `dd/MM` (pt) or `MM/dd` (en).
 */
export default function ExecutionsChart({
  perDay,
  label,
}: {
  perDay: Dashboard['per_day'];
  label: string;
}) {
  const format = useFormat();
  const labels = useExecutionStatusLabels();
  // Bars in the client's status colours (its status items).
  const palette = useStatusPalette();
  const dayFormat = new Intl.DateTimeFormat(format.lang === 'pt' ? 'pt-BR' : 'en-US', {
    day: '2-digit',
    month: '2-digit',
  });
  const data = perDay.map(({ day, counts }) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    return { day: dayFormat.format(new Date(y, m - 1, d)), ...counts };
  });
  return (
    <BarChart
      h={300}
      data={data}
      dataKey="day"
      type="stacked"
      series={EXECUTION_STATUSES.map((status) => ({
        name: status,
        label: labels[status],
        color: palette.color[status],
      }))}
      withLegend
      // Keep the statuses in their order (Recharts sorts legend items by name otherwise).
      legendProps={{ verticalAlign: 'bottom', itemSorter: null }}
      valueFormatter={format.number}
      // Counts are whole: no 0.25 ticks. Horizontal grid lines to read bar heights against.
      yAxisProps={{ allowDecimals: false }}
      gridAxis="x"
      tickLine="y"
      maxBarWidth={40}
      role="img"
      aria-label={label}
    />
  );
}
