import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Box, ColorSwatch, Group, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import { EXECUTION_STATUSES, type Dashboard, type Language } from '@rota/contract';
import { useFormat } from '../../../lib/format';
import { useExecutionStatusLabels } from '../../activity';
import { useStatusPalette } from '../../status-items';
import { useDashboardTranslation } from '../i18n';

/** The whole chart, legend included: what the page reserves for its skeleton. */
const HEIGHT = 300;
const MAX_BAR_WIDTH = 40;
/** Axis text, in px. */
const FONT_SIZE = 12;
/** About the width of a digit, `.` or `/` at FONT_SIZE in the console's fonts. */
const CHAR_WIDTH = 7;
const TICK_LENGTH = 5;
/** Room above the top tick's label and below the bars for the day labels. */
const MARGIN = { top: 8, right: 8, bottom: 24 };
/** Horizontal room a day label wants besides its text. */
const LABEL_GAP = 10;

/**
 * The y axis's ticks: whole numbers from 0 in steps of 1, 2 or 5 × 10^k, at most about `count`
 * of them, the last at or above `max`. Nothing to draw (0) still gets 0..1.
 */
function niceTicks(max: number, count: number): number[] {
  const ceiling = Number.isFinite(max) && max > 0 ? max : 1;
  const raw = ceiling / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const step = Math.max(
    1,
    (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power,
  );
  const top = Math.ceil(ceiling / step) * step;
  const ticks: number[] = [];
  for (let value = 0; value <= top; value += step) ticks.push(value);
  return ticks;
}

/**
 * `YYYY-MM-DD` as `dd/MM` (pt) or `MM/dd` (en), with `/yyyy` for a whole date: what Intl writes
 * for pt-BR and en-US, without building a formatter (format.ts says why).
 */
function dayText(day: string, lang: Language, withYear = false): string {
  const [year = '', month = '', date = ''] = day.split('-');
  const short = lang === 'pt' ? `${date}/${month}` : `${month}/${date}`;
  return withYear ? `${short}/${year}` : short;
}

/** The box's size, kept up to date; 0 × 0 until the first observation. */
function useBoxSize<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      const width = Math.floor(entry.contentRect.width);
      const height = Math.floor(entry.contentRect.height);
      setSize((old) => (old.width === width && old.height === height ? old : { width, height }));
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return [ref, size] as const;
}

/**
 * Executions per day, stacked by status in `EXECUTION_STATUSES` order (the first at the bottom),
 * in the client's status colours; days as `dd/MM` (pt) or `MM/dd` (en). Drawn here in SVG
 * rather than with a chart library, which was a ≈420 kB chunk for a phone to fetch and evaluate
 * after the dashboard's first paint (docs/decisions.md).
 *
 * A day's counts and total show in a tooltip on hover, tap and keyboard focus (the chart is one
 * tab stop; arrows, Home and End move between days); screen readers get a table of the figures.
 */
export default function ExecutionsChart({
  perDay,
  label,
}: {
  perDay: Dashboard['per_day'];
  label: string;
}) {
  const t = useDashboardTranslation();
  const format = useFormat();
  const labels = useExecutionStatusLabels();
  const palette = useStatusPalette();
  const [plotRef, size] = useBoxSize<HTMLDivElement>();
  const tipRef = useRef<HTMLDivElement>(null);
  const [selected, setSelected] = useState<number | null>(null);

  const days = perDay.map(({ day, counts }) => ({
    day,
    short: dayText(day, format.lang),
    long: dayText(day, format.lang, true),
    counts,
    total: EXECUTION_STATUSES.reduce((sum, s) => sum + (counts[s] > 0 ? counts[s] : 0), 0),
  }));
  const active = selected !== null && selected < days.length ? selected : null;

  // A tick every 40 px or so, 2 to 5 of them.
  const innerHeight = Math.max(0, size.height - MARGIN.top - MARGIN.bottom);
  const ticks = niceTicks(
    Math.max(0, ...days.map((d) => d.total)),
    Math.min(5, Math.max(2, Math.floor(innerHeight / 40))),
  );
  const top = ticks.at(-1)!;
  const tickLabels = ticks.map((value) => format.number(value));
  const left = Math.max(...tickLabels.map((text) => text.length)) * CHAR_WIDTH + TICK_LENGTH + 6;
  const plot = {
    x: left,
    y: MARGIN.top,
    width: Math.max(0, size.width - left - MARGIN.right),
    height: innerHeight,
  };
  const bottom = plot.y + plot.height;
  const yOf = (value: number) => bottom - (value / top) * plot.height;
  const band = plot.width / Math.max(1, days.length);
  const barWidth = Math.min(MAX_BAR_WIDTH, band * 0.8);
  const centreOf = (index: number) => plot.x + band * (index + 0.5);
  // Every n-th day's label, so that none overlaps the next.
  const labelWidth = Math.max(0, ...days.map((d) => d.short.length)) * CHAR_WIDTH + LABEL_GAP;
  const labelEvery = band > 0 ? Math.max(1, Math.ceil(labelWidth / band)) : 1;

  // The tooltip beside the active bar, on whichever side it fits; over it on a narrow screen.
  const anchor = active === null ? null : centreOf(active);
  const reach = barWidth / 2 + 8;
  useLayoutEffect(() => {
    const tip = tipRef.current;
    if (!tip || anchor === null) return;
    const width = tip.offsetWidth;
    let x = anchor + reach;
    if (x + width > size.width) x = anchor - reach - width;
    if (x < 0) x = Math.max(0, Math.min(size.width - width, anchor - width / 2));
    tip.style.left = `${x}px`;
  }, [anchor, reach, size.width]);

  const move = (event: KeyboardEvent) => {
    const last = days.length - 1;
    if (last < 0) return;
    const from = active ?? -1;
    const to =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? Math.min(last, from + 1)
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? Math.max(0, from === -1 ? last : from - 1)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (event.key === 'Escape') setSelected(null);
    if (to === null) return;
    event.preventDefault();
    setSelected(to);
  };

  const shown = active === null ? null : days[active]!;
  return (
    <Stack h={HEIGHT} gap="xs" pos="relative">
      <Box
        ref={plotRef}
        flex={1}
        mih={0}
        pos="relative"
        role="img"
        aria-label={label}
        tabIndex={0}
        className="mantine-focus-auto"
        onFocus={() => setSelected((old) => old ?? 0)}
        onBlur={() => setSelected(null)}
        onMouseLeave={() => setSelected(null)}
        onKeyDown={move}
      >
        <svg
          width={size.width}
          height={size.height}
          aria-hidden="true"
          focusable="false"
          fontSize={FONT_SIZE}
          style={{ position: 'absolute', inset: 0, overflow: 'visible' }}
        >
          {size.width > 0 ? (
            <>
              {active !== null ? (
                <rect
                  data-cursor=""
                  x={plot.x + band * active}
                  y={plot.y}
                  width={band}
                  height={plot.height}
                  style={{ fill: 'var(--mantine-color-default-hover)' }}
                />
              ) : null}
              <g style={{ stroke: 'var(--mantine-color-default-border)' }}>
                {ticks.map((value) => (
                  <line
                    key={value}
                    x1={plot.x - TICK_LENGTH}
                    x2={plot.x + plot.width}
                    y1={yOf(value)}
                    y2={yOf(value)}
                    strokeDasharray={value === 0 ? undefined : '5 5'}
                  />
                ))}
              </g>
              <g data-axis="y" textAnchor="end" style={{ fill: 'var(--mantine-color-dimmed)' }}>
                {ticks.map((value, i) => (
                  <text key={value} x={plot.x - TICK_LENGTH - 4} y={yOf(value)} dy="0.32em">
                    {tickLabels[i]}
                  </text>
                ))}
              </g>
              <g data-axis="x" textAnchor="middle" style={{ fill: 'var(--mantine-color-dimmed)' }}>
                {days.map((d, i) =>
                  i % labelEvery === 0 ? (
                    <text key={d.day} x={centreOf(i)} y={bottom + 6} dy="0.71em">
                      {d.short}
                    </text>
                  ) : null,
                )}
              </g>
              {days.map((d, i) => {
                let sum = 0;
                return (
                  <g key={d.day} data-day={d.day}>
                    {EXECUTION_STATUSES.map((status) => {
                      const count = d.counts[status];
                      if (!(count > 0)) return null;
                      const y = yOf(sum + count);
                      const height = yOf(sum) - y;
                      sum += count;
                      return (
                        <rect
                          key={status}
                          data-status={status}
                          x={centreOf(i) - barWidth / 2}
                          y={y}
                          width={barWidth}
                          height={height}
                          fill={palette.color[status]}
                        />
                      );
                    })}
                  </g>
                );
              })}
              {/* Over the bars, each day's whole column answers the pointer. */}
              {days.map((d, i) => (
                <rect
                  key={d.day}
                  data-hit={d.day}
                  x={plot.x + band * i}
                  y={plot.y}
                  width={band}
                  height={plot.height}
                  fill="transparent"
                  onMouseEnter={() => setSelected(i)}
                  onClick={() => setSelected(i)}
                />
              ))}
            </>
          ) : null}
        </svg>
        {shown ? (
          <Paper
            ref={tipRef}
            data-testid="chart-tooltip"
            withBorder
            shadow="md"
            radius="sm"
            px="sm"
            py={6}
            pos="absolute"
            top={plot.y}
            style={{ zIndex: 1, pointerEvents: 'none', whiteSpace: 'nowrap' }}
          >
            <Text size="sm" fw={600} mb={2}>
              {shown.long}
            </Text>
            {EXECUTION_STATUSES.map((status) => (
              <Group key={status} gap={6} wrap="nowrap" justify="space-between">
                <Group gap={6} wrap="nowrap">
                  <ColorSwatch color={palette.color[status]} size={8} withShadow={false} />
                  <Text size="xs">{labels[status]}</Text>
                </Group>
                <Text size="xs" ml="md" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {format.number(shown.counts[status])}
                </Text>
              </Group>
            ))}
            <Group gap={6} wrap="nowrap" justify="space-between" mt={2}>
              <Text size="xs" fw={600}>
                {t('chart.dayTotal')}
              </Text>
              <Text size="xs" fw={600} ml="md" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {format.number(shown.total)}
              </Text>
            </Group>
          </Paper>
        ) : null}
      </Box>
      <Group
        component="ul"
        // A list still, in Safari, without its bullets.
        role="list"
        aria-label={t('chart.legend')}
        justify="center"
        gap="xs"
        m={0}
        p={0}
        style={{ listStyle: 'none', rowGap: 4 }}
      >
        {EXECUTION_STATUSES.map((status) => (
          <Group key={status} component="li" gap={6} wrap="nowrap">
            <ColorSwatch color={palette.color[status]} size={10} withShadow={false} />
            <Text size="xs">{labels[status]}</Text>
          </Group>
        ))}
      </Group>
      <VisuallyHidden>
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              <th scope="col">{t('chart.day')}</th>
              {EXECUTION_STATUSES.map((status) => (
                <th key={status} scope="col">
                  {labels[status]}
                </th>
              ))}
              <th scope="col">{t('chart.dayTotal')}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{d.long}</th>
                {EXECUTION_STATUSES.map((status) => (
                  <td key={status}>{format.number(d.counts[status])}</td>
                ))}
                <td>{format.number(d.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </Stack>
  );
}
