// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentDownloadIndex, Language } from '@rota/contract';
import { setToken } from '../../../lib/session';
import { mockFetch, type MockReply } from '../../../../test/http-mock';
import { renderElement, resetEnvironment } from '../../../../test/render';
import { AgentDownloadDialog } from './agent-download-dialog';

const ORIGIN = 'https://rota.example.com';
const LINUX_SHA = 'a'.repeat(64);
const WIN_SHA = 'b'.repeat(64);
const INDEX: AgentDownloadIndex = {
  version: '3.2.0',
  platforms: [
    { platform: 'linux-x64', file: 'rota-agent-linux-x64', sha256: LINUX_SHA, bytes: 52_428_800 },
    { platform: 'win-x64', file: 'rota-agent-win-x64.exe', sha256: WIN_SHA, bytes: 62_914_560 },
  ],
};

async function open(
  options: { lang?: Language; token?: string; agentName?: string; index?: MockReply } = {},
) {
  await resetEnvironment(options.lang ?? 'pt');
  setToken('session-token');
  const { calls } = mockFetch(({ url }) => {
    if (url.endsWith('/rota/agent/download/api/v1/index')) {
      return options.index ?? { status: 200, body: { data: INDEX } };
    }
    if (url.endsWith('/rota/agent/download/api/v1/win-x64')) {
      return {
        status: 200,
        raw: 'MZ windows agent',
        headers: {
          'Content-Type': 'application/octet-stream',
          'Content-Disposition': 'attachment; filename="rota-agent-win-x64.exe"',
        },
      };
    }
    throw new Error(`unexpected API call: ${url}`);
  });
  const view = renderElement(
    <AgentDownloadDialog
      opened
      onClose={() => {}}
      token={options.token}
      agentName={options.agentName}
      origin={ORIGIN}
    />,
  );
  const dialog = await screen.findByRole('dialog');
  return { ...view, calls, dialog };
}

const command = (dialog: HTMLElement, step: 'token' | 'install') =>
  within(dialog).getByTestId(`agent-install-${step}`).textContent;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Download agent', () => {
  it('shows the Linux build and its install commands for this server, a placeholder for the token', async () => {
    const { dialog } = await open();
    expect(within(dialog).getByText('Baixar agente')).toBeInTheDocument();
    expect(await within(dialog).findByText('3.2.0')).toBeInTheDocument();
    expect(within(dialog).getByText('50 MB')).toBeInTheDocument();
    expect(within(dialog).getByTestId('agent-download-sha256')).toHaveTextContent(LINUX_SHA);
    expect(command(dialog, 'token')).toBe(
      "sudo install -D -m 600 /dev/stdin /etc/rota-agent/token <<'EOF'\n<agent token>\nEOF",
    );
    expect(command(dialog, 'install')).toBe(
      `chmod +x ./rota-agent-linux-x64\nsudo ./rota-agent-linux-x64 install --server ${ORIGIN} --token-file /etc/rota-agent/token`,
    );
    expect(
      within(dialog).getByText(/Grave o token do agente em \/etc\/rota-agent\/token/),
    ).toBeInTheDocument();
  });

  it('switching to Windows changes the build, the commands and offers --desktop', async () => {
    const { dialog, user } = await open({ lang: 'en' });
    await within(dialog).findByText('3.2.0');
    await user.click(within(dialog).getByText('Windows x64'));
    expect(within(dialog).getByTestId('agent-download-sha256')).toHaveTextContent(WIN_SHA);
    expect(within(dialog).getByText('60 MB')).toBeInTheDocument();
    expect(command(dialog, 'token')).toBe(
      [
        'New-Item -ItemType Directory -Force -Path C:\\ProgramData\\RotaAgent | Out-Null',
        "icacls C:\\ProgramData\\RotaAgent /inheritance:r /grant:r '*S-1-5-18:(OI)(CI)F' '*S-1-5-32-544:(OI)(CI)F'",
        "Set-Content -NoNewline -Path C:\\ProgramData\\RotaAgent\\token -Value '<agent token>'",
      ].join('\n'),
    );
    const install = `.\\rota-agent-win-x64.exe install --server ${ORIGIN} --token-file C:\\ProgramData\\RotaAgent\\token`;
    expect(command(dialog, 'install')).toBe(install);
    await user.click(within(dialog).getByRole('checkbox', { name: /--desktop/ }));
    expect(command(dialog, 'install')).toBe(`${install} --desktop`);
    // Linux has no desktop mode: back there, the option is gone.
    await user.click(within(dialog).getByText('Linux x64'));
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(command(dialog, 'install')).not.toContain('--desktop');
  });

  it('writes a given token into the token file, the platform’s way, and nowhere else', async () => {
    const { dialog, user } = await open({ token: "tok_it's_secret", agentName: 'agente-03' });
    expect(within(dialog).getByText('Instalar o agente “agente-03”')).toBeInTheDocument();
    await within(dialog).findByText('3.2.0');
    expect(command(dialog, 'token')).toBe(
      "sudo install -D -m 600 /dev/stdin /etc/rota-agent/token <<'EOF'\ntok_it's_secret\nEOF",
    );
    expect(command(dialog, 'install')).not.toContain('tok_');
    await user.click(within(dialog).getByText('Windows x64'));
    // PowerShell's single quotes: a quote inside is doubled.
    expect(command(dialog, 'token')).toContain("-Value 'tok_it''s_secret'");
    expect(command(dialog, 'install')).not.toContain('tok_');
  });

  it('copies the commands and the SHA-256', async () => {
    const { dialog, user } = await open({ token: 'tok_copy_1' });
    await within(dialog).findByText('3.2.0');
    await user.click(within(dialog).getByRole('button', { name: 'Copiar os comandos do token' }));
    await waitFor(async () =>
      expect(await navigator.clipboard.readText()).toBe(command(dialog, 'token')),
    );
    await user.click(
      within(dialog).getByRole('button', { name: 'Copiar o comando de instalação' }),
    );
    await waitFor(async () =>
      expect(await navigator.clipboard.readText()).toBe(command(dialog, 'install')),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Copiar SHA-256' }));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe(LINUX_SHA));
  });

  it('downloads with the session’s header and saves the file under the server’s name', async () => {
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:agent');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    const { dialog, user, calls } = await open();
    await within(dialog).findByText('3.2.0');
    await user.click(within(dialog).getByText('Windows x64'));
    await user.click(within(dialog).getByRole('button', { name: 'Baixar rota-agent-win-x64.exe' }));
    await waitFor(() => expect(saved).toEqual(['rota-agent-win-x64.exe']));
    const call = calls.find((c) => c.url.endsWith('/rota/agent/download/api/v1/win-x64'));
    expect(call?.method).toBe('GET');
    expect(call?.headers.get('authorization')).toBe('Bearer session-token');
    expect(await createObjectURL.mock.calls[0]![0].text()).toBe('MZ windows agent');
  });

  it('says so when the server packaged no agent, with the server’s message', async () => {
    const { dialog } = await open({
      index: {
        status: 404,
        body: {
          code: 'agent_build_missing',
          message: 'Nenhum agente foi empacotado neste servidor ainda',
        },
      },
    });
    expect(await within(dialog).findByText('Nenhum agente para baixar')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Nenhum agente foi empacotado neste servidor ainda'),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /^Baixar / })).not.toBeInTheDocument();
    // The commands still show: the build may come later.
    expect(command(dialog, 'install')).toContain('--server https://rota.example.com');
  });
});
