import { TextInput } from '@mantine/core';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderElement } from '../../test/render';
import { FieldRow } from './field-row';

/** The row's grid: layout itself is checked in the browser (e2e screenshots), not in jsdom. */
function rowOf(label: string) {
  return screen.getByLabelText(label).closest('[style*="--field-row-template"]');
}

describe('FieldRow', () => {
  it('sets equal columns by default, or the template it is given', () => {
    renderElement(
      <>
        <FieldRow cols={3}>
          <TextInput label="Prioridade" description="Maior primeiro" />
          <TextInput label="Tentativas" />
        </FieldRow>
        <FieldRow template="minmax(0, 1fr) 8rem">
          <TextInput label="Host" />
          <TextInput label="Porta" error="Entre 1 e 65535" />
        </FieldRow>
      </>,
    );
    expect(rowOf('Prioridade')?.getAttribute('style')).toContain('repeat(3, minmax(0, 1fr))');
    expect(rowOf('Tentativas')).toBe(rowOf('Prioridade'));
    expect(rowOf('Host')?.getAttribute('style')).toContain('minmax(0, 1fr) 8rem');
    expect(screen.getByText('Entre 1 e 65535')).toBeInTheDocument();
  });
});
