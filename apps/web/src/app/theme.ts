import {
  createTheme,
  defaultVariantColorsResolver,
  parseThemeColor,
  type CSSVariablesResolver,
  type VariantColorsResolver,
} from '@mantine/core';
import { mix, readableOn, readableShade } from '../lib/contrast';
import readableColors from './readable-colors.json';

/** The body colours of the two schemes (Mantine's white and dark.7). */
const BODY = { light: '#ffffff', dark: '#242424' } as const;

/**
 * Colours given as `#rrggbb` (a client's status colours) in the light, subtle, outline and
 * transparent variants: Mantine writes the text in that very colour, often under 4.5:1. The
 * text is darkened (light scheme) or lightened (dark) just enough on the variant's 10% tint.
 */
export const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  const { color, variant } = input;
  const custom = !parseThemeColor({ color, theme: input.theme }).isThemeColor;
  const tinted = ['light', 'subtle', 'outline', 'transparent'].includes(variant ?? '');
  if (!custom || !tinted || !/^#[0-9a-f]{6}$/i.test(color ?? '')) return colors;
  return { ...colors, color: readableTint(color!) };
};

/** Every badge of a colour asks again; the search costs more than the answer. */
const tints = new Map<string, string>();
function readableTint(color: string): string {
  let tint = tints.get(color);
  if (tint === undefined) {
    const onLight = readableOn(color, [mix(BODY.light, color, 0.12), BODY.light], 'light');
    const onDark = readableOn(color, [mix(BODY.dark, color, 0.12), BODY.dark], 'dark');
    // Mantine sets `color-scheme` from the chosen scheme, so light-dark() follows it.
    tint = `light-dark(${onLight}, ${onDark})`;
    tints.set(color, tint);
  }
  return tint;
}

export const theme = createTheme({
  primaryColor: 'indigo',
  // Filled buttons and badges: shade 8 carries white text at 4.5:1 (shade 6 is 4.32:1).
  primaryShade: { light: 8, dark: 8 },
  // Filled colours too light for white text (green, yellow, orange, teal…) get dark text; 0.183
  // is the luminance where white text drops under 4.5:1.
  autoContrast: true,
  luminanceThreshold: 0.183,
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  cursorType: 'pointer',
  variantColorResolver,
  components: {
    // A Select keeps its closed dropdown in the page by default, and positions it as it mounts:
    // ≈70 ms of forced layout on a phone for a list page's two Selects
    // (bench/profile-page.ts). Built when opened instead; Mantine supports both.
    Select: { defaultProps: { comboboxProps: { keepMounted: false } } },
  },
});

/**
 * Text colours that reach WCAG AA (4.5:1) in both schemes, fixed once here instead of page by
 * page: dimmed text, links, errors, and every colour's text, outline and light-variant
 * text, each checked against the backgrounds the console paints them on (body, striped and
 * hovered rows, the light variant's own tint).
 *
 * The search (`readableVariables`) ran in every browser before the first paint, ≈25 ms of a
 * phone's; its answer for this theme is kept in `readable-colors.json` instead, which
 * theme.test.ts compares with the search (`npx vitest run src/app/theme.test.ts -u` rewrites it
 * after a change to the theme).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => READABLE_COLORS;

const READABLE_COLORS: ReturnType<CSSVariablesResolver> = { variables: {}, ...readableColors };

/** Each scheme's readable text colours for a resolved theme (see cssVariablesResolver). */
export function readableVariables(resolved: Parameters<CSSVariablesResolver>[0]): {
  light: Record<string, string>;
  dark: Record<string, string>;
} {
  const { colors, primaryColor } = resolved;
  const lightGrounds = [resolved.white, colors.gray[0], colors.gray[1]];
  const darkGrounds = [colors.dark[7], colors.dark[6], colors.dark[8]];
  const light: Record<string, string> = {
    '--mantine-color-dimmed': readableShade(colors.gray, 6, lightGrounds, 'light'),
    '--mantine-color-anchor': readableShade(colors[primaryColor]!, 6, lightGrounds, 'light'),
    '--mantine-color-error': readableShade(
      colors.red,
      6,
      [...lightGrounds, colors.red[0]],
      'light',
    ),
    '--mantine-color-success': readableShade(colors.teal, 8, lightGrounds, 'light'),
  };
  const dark: Record<string, string> = {
    '--mantine-color-dimmed': readableShade(colors.dark, 2, darkGrounds, 'dark'),
    '--mantine-color-anchor': readableShade(colors[primaryColor]!, 4, darkGrounds, 'dark'),
    '--mantine-color-error': readableShade(colors.red, 6, darkGrounds, 'dark'),
    '--mantine-color-success': readableShade(colors.teal, 6, darkGrounds, 'dark'),
  };
  for (const [name, shades] of Object.entries(colors)) {
    if (name === 'dark') continue;
    const text = readableShade(shades, 6, lightGrounds, 'light');
    light[`--mantine-color-${name}-text`] = text;
    light[`--mantine-color-${name}-outline`] = text;
    light[`--mantine-color-${name}-light-color`] = readableShade(
      shades,
      7,
      [shades[1], shades[2]],
      'light',
    );
    const darkText = readableShade(shades, 4, darkGrounds, 'dark');
    dark[`--mantine-color-${name}-text`] = darkText;
    dark[`--mantine-color-${name}-outline`] = darkText;
  }
  return { light, dark };
}
