import type { MantineColorsTuple } from '@mantine/core';

/**
 * WCAG 2 contrast helpers for the theme: the library's default dimmed grey (3.32:1)
 * and several text shades miss the 4.5:1 body-text ratio, so the theme picks, per colour and
 * scheme, the first shade that reaches it on every background the console paints it on.
 */
export const TEXT_RATIO = 4.5;

function channels(hex: string): [number, number, number] {
  const short = hex.replace('#', '');
  // Mantine writes white as `#fff`.
  const value = short.length === 3 ? [...short].map((c) => c + c).join('') : short;
  return [0, 2, 4].map((at) => parseInt(value.slice(at, at + 2), 16)) as [number, number, number];
}

function toHex(rgb: readonly number[]): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/** `hex` moved `amount` (0–1) of the way towards `target`. */
export function mix(hex: string, target: string, amount: number): string {
  const from = channels(hex);
  const to = channels(target);
  return toHex(from.map((c, i) => c + (to[i]! - c) * amount));
}

function readsOn(color: string, backgrounds: readonly string[]): boolean {
  return backgrounds.every((bg) => contrastRatio(color, bg) >= TEXT_RATIO);
}

/**
 * The first shade from `start` towards the contrasting end (darker on light backgrounds, lighter
 * on dark ones) that reads on every background; past the last shade, the last one mixed towards
 * black or white until it does.
 */
export function readableShade(
  colors: MantineColorsTuple,
  start: number,
  backgrounds: readonly string[],
  scheme: 'light' | 'dark',
): string {
  const step = scheme === 'light' ? 1 : -1;
  for (let shade = start; shade >= 0 && shade <= 9; shade += step) {
    // Quarter steps towards the next shade: the lightest passing tone keeps the palette's look.
    const next = colors[shade + step] ?? colors[shade]!;
    for (const amount of [0, 0.25, 0.5, 0.75]) {
      const candidate = mix(colors[shade]!, next, amount);
      if (readsOn(candidate, backgrounds)) return candidate;
    }
  }
  const last = colors[scheme === 'light' ? 9 : 0]!;
  const towards = scheme === 'light' ? '#000000' : '#ffffff';
  for (let amount = 0.05; amount < 1; amount += 0.05) {
    const candidate = mix(last, towards, amount);
    if (readsOn(candidate, backgrounds)) return candidate;
  }
  return towards;
}

/**
 * `color` moved towards black (on light backgrounds) or white (on dark ones) just enough to
 * read at 4.5:1 on every background: for colours a user picks, like a status item's.
 */
export function readableOn(
  color: string,
  backgrounds: readonly string[],
  scheme: 'light' | 'dark',
): string {
  const towards = scheme === 'light' ? '#000000' : '#ffffff';
  for (let amount = 0; amount < 1; amount += 0.05) {
    const candidate = mix(color, towards, amount);
    if (readsOn(candidate, backgrounds)) return candidate;
  }
  return towards;
}
