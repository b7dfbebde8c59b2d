import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { LanguageMenu } from '../src/components/language-menu';
import { api } from '../src/lib/http';
import { forbidFetch, mockFetch } from './http-mock';
import { renderElement, resetEnvironment } from './render';

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('language menu', () => {
  it('starts in Portuguese by default', () => {
    forbidFetch();
    renderElement(<LanguageMenu />);
    expect(screen.getByRole('button', { name: 'Idioma' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('pt-BR');
  });

  it('switches to English, keeps the choice in localStorage.lang and sets <html lang>', async () => {
    forbidFetch();
    const { user } = renderElement(<LanguageMenu />);
    await user.click(screen.getByRole('button', { name: 'Idioma' }));
    await user.click(await screen.findByRole('menuitem', { name: 'English' }));

    expect(window.localStorage.getItem('lang')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(await screen.findByRole('button', { name: 'Language' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Language' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Português' }));
    expect(window.localStorage.getItem('lang')).toBe('pt');
    await waitFor(() => expect(document.documentElement.lang).toBe('pt-BR'));
  });

  it('makes the next API call ask for answers in the new language', async () => {
    const { calls } = mockFetch(() => ({ status: 200, body: {} }));
    const { user } = renderElement(<LanguageMenu />);
    await api.post('/x');
    await user.click(screen.getByRole('button', { name: 'Idioma' }));
    await user.click(await screen.findByRole('menuitem', { name: 'English' }));
    await api.post('/x');
    expect(calls.map((call) => call.headers.get('Accept-Language'))).toEqual(['pt', 'en']);
  });
});
