import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { useState } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Language } from '@rota/contract';
import { DayInput, DayTimeInput } from '../src/components/date-inputs';
import { openPage, quietApi } from './operations-fixtures';
import { resetEnvironment } from './render';

/** No dead ends, and date inputs in the console's language. */

// The pages' chunks, loaded once here, so the first test's 5 s wait for a heading is not
// spent transforming modules on a busy machine.
beforeAll(async () => {
  await Promise.all([
    import('../src/components/not-found'),
    import('../src/features/shell/routes/shell-layout'),
    import('../src/features/dashboard/routes/dashboard-page'),
    import('../src/features/activity/routes/activity-page'),
  ]);
}, 60_000);

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('unknown addresses', { timeout: 20_000 }, () => {
  it.each([
    ['pt', 'Página não encontrada', 'Ir para o início', 'Início'],
    ['en', 'Page not found', 'Go to home', 'Home'],
  ] as const)(
    '%s: a not-found page inside the shell, with a way home',
    async (lang, title, home, dashboard) => {
      const { router } = await openPage('/no/such/page', new RegExp(title), [], quietApi(), lang);
      expect(router.state.location.pathname).toBe('/no/such/page');
      // Opened straight from an address: nothing of this app to go back to, only home.
      expect(screen.queryByRole('button', { name: lang === 'pt' ? 'Voltar' : 'Back' })).toBeNull();
      await userEvent.click(screen.getByRole('link', { name: home }));
      expect(await screen.findByRole('heading', { name: dashboard, level: 1 })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/dashboard');
    },
  );
});

describe('the denied page', { timeout: 20_000 }, () => {
  it.each([
    ['pt', 'Voltar', 'Ir para o início'],
    ['en', 'Back', 'Go to home'],
  ] as const)('%s: goes back to the page it came from, or home', async (lang, back, home) => {
    const { router } = await openPage('/dashboard', /Início|Home/, [], quietApi(), lang);
    await router.navigate('/audit');
    const denied = await screen.findByRole('alert');
    expect(within(denied).getByRole('link', { name: home })).toHaveAttribute('href', '/dashboard');
    await userEvent.click(within(denied).getByRole('button', { name: back }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });
});

describe('the dashboard', { timeout: 20_000 }, () => {
  it.each([
    ['pt', 'Agentes', 'Máquinas virtuais'],
    ['en', 'Agents', 'Virtual machines'],
  ] as const)(
    '%s: hides agent and VM counts from who may not list them',
    async (lang, agents, vms) => {
      await openPage('/dashboard', /Início|Home/, ['HISTORIC.LIST'], quietApi(), lang);
      expect(await screen.findByTestId('stalled-card')).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: agents })).toBeNull();
      expect(screen.queryByRole('heading', { name: vms })).toBeNull();
    },
  );

  it('shows them to who may', async () => {
    await openPage('/dashboard', /Início/, ['AGENTES.LIST'], quietApi());
    expect(await screen.findByRole('heading', { name: 'Agentes' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Máquinas virtuais' })).toBeInTheDocument();
  });
});

describe('Activity with a bad range', { timeout: 20_000 }, () => {
  it('en: the rows go away and the error takes their place, not under the inputs', async () => {
    await openPage(
      '/activity?startDate=2026-01-10&endDate=2026-01-05',
      /Activity/,
      ['HISTORIC.LIST'],
      quietApi(),
      'en',
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Invalid period');
    expect(alert).toHaveTextContent(/date/i);
    expect(screen.queryByRole('table', { name: 'Executions' })).toBeNull();
    // The inputs only turn red: a message under them would make the filter row taller.
    expect(screen.getByLabelText(/End date/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/End date/)).toHaveValue('01/05/2026');
  });
});

function Harness({ time, initial }: { time?: boolean; initial: string }) {
  const [value, setValue] = useState(initial);
  const Input = time ? DayTimeInput : DayInput;
  return (
    <>
      <Input label="When" value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}

async function renderInput(lang: Language, props: { time?: boolean; initial: string }) {
  await resetEnvironment(lang);
  render(
    <MantineProvider>
      <Harness {...props} />
    </MantineProvider>,
  );
  return screen.getByLabelText('When');
}

describe('date inputs follow the console language, not the browser', () => {
  it('pt: dd/MM/yyyy, and a typed day becomes YYYY-MM-DD', async () => {
    const input = await renderInput('pt', { initial: '2026-11-24' });
    expect(input).toHaveValue('24/11/2026');
    expect(input).toHaveAttribute('placeholder', 'dd/mm/aaaa');
    fireEvent.change(input, { target: { value: '05/01/2027' } });
    expect(screen.getByTestId('value')).toHaveTextContent('2027-01-05');
  });

  it('en: MM/dd/yyyy, and a typed day becomes YYYY-MM-DD', async () => {
    const input = await renderInput('en', { initial: '2026-11-24' });
    expect(input).toHaveValue('11/24/2026');
    expect(input).toHaveAttribute('placeholder', 'mm/dd/yyyy');
    fireEvent.change(input, { target: { value: '01/05/2027' } });
    expect(screen.getByTestId('value')).toHaveTextContent('2027-01-05');
  });

  it('pt: 24 h time (23:59)', async () => {
    const input = await renderInput('pt', { time: true, initial: '2026-11-24T23:59' });
    expect(input).toHaveValue('24/11/2026 23:59');
    fireEvent.change(input, { target: { value: '01/12/2026 07:05' } });
    expect(screen.getByTestId('value')).toHaveTextContent('2026-12-01T07:05');
  });

  it('en: 12 h time (11:59 PM)', async () => {
    const input = await renderInput('en', { time: true, initial: '2026-11-24T23:59' });
    expect(input).toHaveValue('11/24/2026 11:59 PM');
    fireEvent.change(input, { target: { value: '12/01/2026 7:05 AM' } });
    expect(screen.getByTestId('value')).toHaveTextContent('2026-12-01T07:05');
  });

  it('leaves an impossible day out instead of rolling it over', async () => {
    const input = await renderInput('pt', { initial: '2026-11-24' });
    fireEvent.change(input, { target: { value: '31/02/2027' } });
    expect(screen.getByTestId('value')).toHaveTextContent('2026-11-24');
  });
});
