import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { variantColorResolver, theme } from './theme';
import { contrastRatio, mix } from '../lib/contrast';

const resolved = mergeMantineTheme(DEFAULT_THEME, theme);

describe('status badges in a client’s own colour', () => {
  it('get text that reads at 4.5:1 on their tint, in the light and the dark scheme', () => {
    for (const color of ['#228be6', '#fab005', '#40c057', '#fa5252', '#212529']) {
      const { color: text } = variantColorResolver({ color, theme: resolved, variant: 'light' });
      const [, onLight, onDark] = /^light-dark\((#\w+), (#\w+)\)$/.exec(text)!;
      expect(contrastRatio(onLight!, mix('#ffffff', color, 0.12)), color).toBeGreaterThanOrEqual(
        4.5,
      );
      expect(contrastRatio(onDark!, mix('#242424', color, 0.12)), color).toBeGreaterThanOrEqual(
        4.5,
      );
    }
  });

  it('leave the theme’s own colours to the theme’s variables', () => {
    const { color } = variantColorResolver({ color: 'teal', theme: resolved, variant: 'light' });
    expect(color).toBe('var(--mantine-color-teal-light-color)');
  });
});
