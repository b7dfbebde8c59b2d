import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, readableVariables, theme } from './theme';
import { contrastRatio, TEXT_RATIO } from '../lib/contrast';

const resolved = mergeMantineTheme(DEFAULT_THEME, theme);
const { light, dark } = cssVariablesResolver(resolved);
const { colors } = resolved;

describe('theme contrast', () => {
  it('the kept readable colours are the contrast search’s answer for this theme', async () => {
    // `-u` rewrites the file after a change to the theme.
    await expect(`${JSON.stringify(readableVariables(resolved), null, 2)}\n`).toMatchFileSnapshot(
      './readable-colors.json',
    );
  });

  it('dimmed text, links and errors reach 4.5:1 on white, striped rows and the dark body', () => {
    for (const name of ['dimmed', 'anchor', 'error', 'success']) {
      const onLight = light[`--mantine-color-${name}`]!;
      const onDark = dark[`--mantine-color-${name}`]!;
      for (const bg of ['#ffffff', colors.gray[0], colors.gray[1]])
        expect(contrastRatio(onLight, bg), `${name} on ${bg}`).toBeGreaterThanOrEqual(TEXT_RATIO);
      for (const bg of [colors.dark[7], colors.dark[6]])
        expect(contrastRatio(onDark, bg), `${name} on ${bg}`).toBeGreaterThanOrEqual(TEXT_RATIO);
    }
  });

  it('every colour’s text and light-variant text reach 4.5:1 in both schemes', () => {
    for (const name of ['indigo', 'blue', 'green', 'teal', 'red', 'orange', 'yellow', 'gray']) {
      const shades = colors[name]!;
      expect(
        contrastRatio(light[`--mantine-color-${name}-text`]!, '#ffffff'),
      ).toBeGreaterThanOrEqual(TEXT_RATIO);
      expect(
        contrastRatio(light[`--mantine-color-${name}-light-color`]!, shades[1]),
      ).toBeGreaterThanOrEqual(TEXT_RATIO);
      expect(
        contrastRatio(dark[`--mantine-color-${name}-text`]!, colors.dark[7]),
      ).toBeGreaterThanOrEqual(TEXT_RATIO);
    }
  });

  it('the primary filled colour carries white text at 4.5:1', () => {
    expect(contrastRatio(colors.indigo[8], '#ffffff')).toBeGreaterThanOrEqual(TEXT_RATIO);
  });
});
