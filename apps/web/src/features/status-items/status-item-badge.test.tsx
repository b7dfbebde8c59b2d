import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderElement } from '../../../test/render';
import { contrastRatio } from '../../lib/contrast';
import { StatusItemBadge } from './components/status-item-badge';

describe('StatusItemBadge (issue 16)', () => {
  it('darkens a light client colour until its text reads at 4.5:1 on the badge tint', () => {
    renderElement(<StatusItemBadge color="#fab005" label="Na fila" />);
    const badge = screen.getByText('Na fila').closest('.mantine-Badge-root') as HTMLElement;
    const text = badge.style.getPropertyValue('--badge-color');
    const background = badge.style.getPropertyValue('--badge-bg');
    expect(text).toMatch(/^#[0-9a-f]{6}$/);
    expect(contrastRatio(text, background)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(text, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });
});
