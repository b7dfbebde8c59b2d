import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { matchMediaStub } from './media-query';
import { openPage, quietApi } from './operations-fixtures';

/**
 * Below `lg` the sidebar is a drawer, and its links are rendered when it first opens,
 * not with a phone's first paint.
 */

/** A screen narrower than Mantine's `lg`: only the shell's drawer query matches. */
function phoneScreen() {
  vi.stubGlobal(
    'matchMedia',
    matchMediaStub((query) => query === 'not all and (min-width: 75em)'),
  );
}

const navigation = () => screen.getByRole('navigation', { name: 'Navegação principal' });
const robotsLink = () => within(navigation()).queryByRole('link', { name: 'Robôs', hidden: true });

describe('the sidebar', { timeout: 20_000 }, () => {
  it('on a phone, renders its links when the drawer first opens, and keeps them', async () => {
    phoneScreen();
    await openPage('/dashboard', /^Início$/, ['ROBOS.LIST'], quietApi());
    expect(robotsLink()).toBeNull();

    const toggle = screen.getByRole('button', { name: 'Abrir ou fechar o menu' });
    await userEvent.click(toggle);
    expect(robotsLink()).toBeInTheDocument();
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // Closed again, the drawer keeps them: it slides out with its content.
    expect(robotsLink()).toBeInTheDocument();
  });

  it('on a wide screen, has its links with the first paint', async () => {
    await openPage('/dashboard', /^Início$/, ['ROBOS.LIST'], quietApi());
    expect(robotsLink()).toBeInTheDocument();
  });
});
