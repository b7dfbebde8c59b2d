import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { lazyDialog } from '../src/components/lazy-dialog';

function Dialog({ opened, title }: { opened: boolean; title: string }) {
  return opened ? <div role="dialog" aria-label={title} /> : <p>closed {title}</p>;
}

describe('lazyDialog', () => {
  it('loads the dialog on its first opening and keeps it mounted after', async () => {
    const load = vi.fn(() => Promise.resolve(Dialog));
    const LazyDialog = lazyDialog(load);
    const { rerender } = render(<LazyDialog opened={false} title="Novo robô" />);
    expect(load).not.toHaveBeenCalled();
    expect(screen.queryByText('closed Novo robô')).not.toBeInTheDocument();

    rerender(<LazyDialog opened title="Novo robô" />);
    expect(await screen.findByRole('dialog', { name: 'Novo robô' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);

    // Closed again: still rendered, so its own closing transition can run.
    rerender(<LazyDialog opened={false} title="Novo robô" />);
    expect(screen.getByText('closed Novo robô')).toBeInTheDocument();
    rerender(<LazyDialog opened title="Editar robô" />);
    expect(screen.getByRole('dialog', { name: 'Editar robô' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('renders a dialog opened from the start', async () => {
    const LazyDialog = lazyDialog(() => Promise.resolve(Dialog));
    await act(async () => {
      render(<LazyDialog opened title="Run now" />);
    });
    expect(screen.getByRole('dialog', { name: 'Run now' })).toBeInTheDocument();
  });
});
