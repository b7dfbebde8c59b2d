import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  EXECUTION_STATUSES,
  type Dashboard,
  type ExecutionStatus,
  type Language,
  type StatusPaletteEntry,
} from '@rota/contract';
import ExecutionsChart from '../src/features/dashboard/components/executions-chart';
import { mockFetch } from './http-mock';
import { renderElement, resetEnvironment } from './render';

type Counts = Dashboard['per_day'][number]['counts'];
const zero = (): Counts =>
  Object.fromEntries(EXECUTION_STATUSES.map((s) => [s, 0])) as Record<ExecutionStatus, number>;
const day = (date: string, counts: Partial<Counts> = {}) => ({
  day: date,
  counts: { ...zero(), ...counts },
});

const LABEL = 'Execuções por dia';

/** The chart alone, in `lang`, the client's palette answered with `palette` (defaults if empty). */
async function drawChart(
  perDay: Dashboard['per_day'],
  lang: Language = 'pt',
  palette: StatusPaletteEntry[] = [],
) {
  await resetEnvironment(lang);
  const { calls } = mockFetch(({ url }) => {
    if (url.endsWith('/rota/status/item/api/v1/palette'))
      return { status: 200, body: { data: palette } };
    throw new Error(`unexpected API call: ${url}`);
  });
  const view = renderElement(<ExecutionsChart perDay={perDay} label={LABEL} />);
  const chart = screen.getByRole('img', { name: LABEL });
  // The first measurement of the box draws the axes (jsdom's ResizeObserver: 800 × 600).
  await waitFor(() => expect(chart.querySelector('[data-axis="y"] text')).not.toBeNull());
  return { ...view, chart, calls };
}

const number = (value: string | null) => Number(value);
const segmentsOf = (chart: HTMLElement, date: string) =>
  [...chart.querySelectorAll(`[data-day="${date}"] rect[data-status]`)].map((rect) => ({
    status: rect.getAttribute('data-status'),
    y: number(rect.getAttribute('y')),
    height: number(rect.getAttribute('height')),
    width: number(rect.getAttribute('width')),
    fill: rect.getAttribute('fill'),
  }));
const yTicks = (chart: HTMLElement) =>
  [...chart.querySelectorAll('[data-axis="y"] text')].map((text) => ({
    label: text.textContent,
    y: number(text.getAttribute('y')),
  }));
const dayLabels = (chart: HTMLElement) =>
  [...chart.querySelectorAll('[data-axis="x"] text')].map((text) => ({
    label: text.textContent,
    x: number(text.getAttribute('x')),
  }));
const tooltip = () => screen.queryByTestId('chart-tooltip');
/** A tooltip's lines: each status's label and count, then the total. */
const tooltipRows = () =>
  [...tooltip()!.querySelectorAll(':scope > .mantine-Group-root')].map((row) => row.textContent);

function expectNoNaN(container: HTMLElement) {
  for (const element of container.querySelectorAll('*')) {
    for (const { name, value } of element.attributes)
      expect(value, `${element.tagName} ${name}`).not.toMatch(/NaN|Infinity/);
  }
  expect(container.textContent).not.toMatch(/NaN|Infinity/);
}

beforeEach(async () => {
  await resetEnvironment('pt');
});

/** The statuses' pt labels in `EXECUTION_STATUSES` order: the legend's and the table's. */
const PT_STATUS_LABELS = [
  'Na fila',
  'Em processamento',
  'Sucesso',
  'Erro de negócio',
  'Erro de aplicação',
  'Tempo esgotado',
  'Cancelada',
];

describe('executions chart', { timeout: 20_000 }, () => {
  const perDay = [
    day('2026-11-19', { queued: 1, success: 4, application_error: 2 }),
    day('2026-11-20', { success: 8, timeout: 2 }),
    day('2026-11-21'),
  ];

  it('stacks each day by status, in order, with heights proportional to the counts', async () => {
    const { chart } = await drawChart(perDay);
    const first = segmentsOf(chart, '2026-11-19');
    const second = segmentsOf(chart, '2026-11-20');
    // EXECUTION_STATUSES order, the first at the bottom; zero counts draw nothing.
    expect(first.map((s) => s.status)).toEqual(['queued', 'success', 'application_error']);
    expect(second.map((s) => s.status)).toEqual(['success', 'timeout']);
    expect(segmentsOf(chart, '2026-11-21')).toEqual([]);
    for (const segments of [first, second]) {
      for (let i = 1; i < segments.length; i++)
        expect(segments[i]!.y + segments[i]!.height).toBeCloseTo(segments[i - 1]!.y, 6);
    }
    // One count is the same height everywhere.
    const unit = first[0]!.height;
    expect(unit).toBeGreaterThan(0);
    const counts = { queued: 1, success: 4, application_error: 2 };
    for (const s of first) expect(s.height).toBeCloseTo(unit * counts[s.status as 'queued'], 6);
    expect(second[0]!.height).toBeCloseTo(unit * 8, 6);
    expect(second[1]!.height).toBeCloseTo(unit * 2, 6);
    // The tallest day (10) reaches the top tick (10), and the bars sit on the 0 tick.
    const ticks = yTicks(chart);
    expect(second[1]!.y).toBeCloseTo(ticks.at(-1)!.y, 6);
    expect(first[0]!.y + first[0]!.height).toBeCloseTo(ticks[0]!.y, 6);
    // The default colours, and no bar wider than 40 px however wide the chart.
    expect(first[0]!.fill).toBe('#228be6');
    for (const s of [...first, ...second]) expect(s.width).toBeLessThanOrEqual(40);
    expect(first[0]!.width).toBe(40);
  });

  it('has whole-number y ticks in steps of 1, 2 or 5 × 10^k covering the tallest day', async () => {
    const { chart } = await drawChart(perDay);
    expect(yTicks(chart).map((t) => t.label)).toEqual(['0', '2', '4', '6', '8', '10']);
    // Evenly spaced, upwards.
    const ys = yTicks(chart).map((t) => t.y);
    for (let i = 2; i < ys.length; i++) expect(ys[i]! - ys[i - 1]!).toBeCloseTo(ys[1]! - ys[0]!, 6);
    expect(ys[1]!).toBeLessThan(ys[0]!);
  });

  it('writes the ticks as numbers of the language', async () => {
    const tall = [day('2026-11-19', { success: 1234 }), day('2026-11-20', { queued: 3 })];
    const pt = await drawChart(tall, 'pt');
    expect(yTicks(pt.chart).map((t) => t.label)).toEqual(['0', '500', '1.000', '1.500']);
    pt.unmount();
    const en = await drawChart(tall, 'en');
    expect(yTicks(en.chart).map((t) => t.label)).toEqual(['0', '500', '1,000', '1,500']);
  });

  it('counts one execution on 0..1, without fractions', async () => {
    const { chart } = await drawChart([day('2026-11-19', { success: 1 })]);
    expect(yTicks(chart).map((t) => t.label)).toEqual(['0', '1']);
  });

  it('draws axes for a range with no execution, with nothing NaN', async () => {
    const { chart, container } = await drawChart([day('2026-11-19'), day('2026-11-20')]);
    expect(chart.querySelectorAll('rect[data-status]')).toHaveLength(0);
    expect(yTicks(chart).map((t) => t.label)).toEqual(['0', '1']);
    expect(dayLabels(chart).map((d) => d.label)).toEqual(['19/11', '20/11']);
    expectNoNaN(container);
  });

  it('draws axes for no day at all, with nothing NaN', async () => {
    const { chart, container } = await drawChart([]);
    expect(yTicks(chart).map((t) => t.label)).toEqual(['0', '1']);
    expect(dayLabels(chart)).toEqual([]);
    expectNoNaN(container);
  });

  it('labels days as dd/MM in Portuguese and MM/dd in English', async () => {
    const pt = await drawChart(perDay, 'pt');
    expect(dayLabels(pt.chart).map((d) => d.label)).toEqual(['19/11', '20/11', '21/11']);
    pt.unmount();
    const en = await drawChart(perDay, 'en');
    expect(dayLabels(en.chart).map((d) => d.label)).toEqual(['11/19', '11/20', '11/21']);
  });

  it('labels every n-th day of a long range, so that labels do not overlap', async () => {
    const month = Array.from({ length: 31 }, (_, i) =>
      day(`2026-10-${String(i + 1).padStart(2, '0')}`, { success: i }),
    );
    const { chart, container } = await drawChart(month);
    const labels = dayLabels(chart);
    expect(labels.length).toBeGreaterThan(1);
    expect(labels.length).toBeLessThan(31);
    expect(labels[0]!.label).toBe('01/10');
    // Each label's five characters (≈7 px each at 12 px) fit before the next one.
    for (let i = 1; i < labels.length; i++)
      expect(labels[i]!.x - labels[i - 1]!.x).toBeGreaterThanOrEqual(5 * 7);
    // Still one bar a day.
    expect(chart.querySelectorAll('g[data-day]')).toHaveLength(31);
    expectNoNaN(container);
  });

  it('lists every status in its order, with its colour, in the legend (pt and en)', async () => {
    const { unmount } = await drawChart(perDay, 'pt');
    let legend = screen.getByRole('list', { name: 'Legenda do gráfico' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(PT_STATUS_LABELS);
    unmount();
    await drawChart(perDay, 'en');
    legend = screen.getByRole('list', { name: 'Chart legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Queued',
      'Processing',
      'Success',
      'Business error',
      'Application error',
      'Timeout',
      'Cancelled',
    ]);
  });

  it('uses the client’s status colours and labels', async () => {
    const { chart } = await drawChart(perDay, 'pt', [
      { status: 'success', category: 'others', label: 'Concluída', color: '#123456' },
    ]);
    await waitFor(() => expect(segmentsOf(chart, '2026-11-20')[0]!.fill).toBe('#123456'));
    const legend = screen.getByRole('list', { name: 'Legenda do gráfico' });
    expect(within(legend).getAllByRole('listitem')[2]).toHaveTextContent('Concluída');
  });

  it('shows a day’s counts and total on hover', async () => {
    const { chart, user } = await drawChart(perDay);
    expect(tooltip()).toBeNull();
    await user.hover(chart.querySelector('[data-hit="2026-11-19"]')!);
    expect(tooltip()).toHaveTextContent('19/11/2026');
    expect(tooltipRows()).toEqual([
      'Na fila1',
      'Em processamento0',
      'Sucesso4',
      'Erro de negócio0',
      'Erro de aplicação2',
      'Tempo esgotado0',
      'Cancelada0',
      'Total7',
    ]);
    await user.hover(chart.querySelector('[data-hit="2026-11-20"]')!);
    expect(tooltip()).toHaveTextContent('20/11/2026');
    expect(tooltipRows().at(-1)).toBe('Total10');
    await user.unhover(chart);
    expect(tooltip()).toBeNull();
  });

  it('walks the days from the keyboard, in English too', async () => {
    const { chart, user } = await drawChart(perDay, 'en');
    await user.tab();
    expect(chart).toHaveFocus();
    // Focus shows the first day; the arrows, Home and End move.
    expect(tooltip()).toHaveTextContent('11/19/2026');
    expect(tooltipRows()).toContain('Application error2');
    expect(tooltipRows().at(-1)).toBe('Total7');
    await user.keyboard('{ArrowRight}');
    expect(tooltip()).toHaveTextContent('11/20/2026');
    expect(tooltipRows()).toContain('Success8');
    expect(tooltipRows().at(-1)).toBe('Total10');
    await user.keyboard('{End}');
    expect(tooltip()).toHaveTextContent('11/21/2026');
    expect(tooltipRows().at(-1)).toBe('Total0');
    await user.keyboard('{ArrowRight}');
    expect(tooltip()).toHaveTextContent('11/21/2026');
    await user.keyboard('{Home}');
    expect(tooltip()).toHaveTextContent('11/19/2026');
    await user.keyboard('{Escape}');
    expect(tooltip()).toBeNull();
    await user.keyboard('{ArrowLeft}');
    expect(tooltip()).toHaveTextContent('11/21/2026');
    await user.tab();
    expect(tooltip()).toBeNull();
  });

  it('gives screen readers the figures as a table', async () => {
    await drawChart(perDay);
    const table = screen.getByRole('table', { name: LABEL });
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Dia', ...PT_STATUS_LABELS, 'Total']);
    expect(within(rows[2]!).getByRole('rowheader')).toHaveTextContent('20/11/2026');
    expect(
      within(rows[2]!)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['0', '0', '8', '0', '0', '2', '0', '10']);
  });
});
