import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Artifact } from '@rota/contract';
import { createLiveServer, makeExecutionDetail } from './activity-fixtures';
import { callsTo, openPage } from './operations-fixtures';
import { resetEnvironment } from './render';

const execution = makeExecutionDetail({ execution_id: 42 });

const artifacts: Artifact[] = [
  {
    rota_artifacts_id: 7,
    name: 'tela.png',
    media_type: 'image/png',
    size: 2048,
    sha256: 'a'.repeat(64),
    created_at: '2026-11-20T10:00:10.000Z',
  },
  {
    rota_artifacts_id: 8,
    name: 'relatorio.csv',
    media_type: 'text/csv',
    size: 12,
    sha256: 'b'.repeat(64),
    created_at: '2026-11-20T10:00:20.000Z',
  },
  {
    rota_artifacts_id: 9,
    name: 'page.svg',
    media_type: 'image/svg+xml',
    size: 30,
    sha256: 'c'.repeat(64),
    created_at: '2026-11-20T10:00:30.000Z',
  },
];

async function openEvidence(path = '/activity/42?tab=evidence') {
  const live = createLiveServer();
  return openPage(path, /Execução #42/, ['HISTORIC.LIST'], (call) => {
    const { url } = call;
    if (url.endsWith('/activity/api/v1/show')) return { status: 200, body: { data: execution } };
    if (url.endsWith('/activity/api/v1/artifact/index')) {
      return { status: 200, body: { data: artifacts } };
    }
    if (url.includes('/activity/api/v1/artifact/download?id=7&inline=1')) {
      return {
        status: 200,
        raw: 'PNG-bytes',
        headers: { 'content-type': 'image/png' },
      };
    }
    if (url.includes('/activity/api/v1/artifact/download?id=8')) {
      return {
        status: 200,
        raw: 'a,b\n1,2\n',
        headers: { 'content-disposition': 'attachment; filename="relatorio.csv"' },
      };
    }
    if (url.endsWith('/activity/api/v1/logs')) {
      return { status: 200, body: { data: [], meta: { last_seq: 0 } } };
    }
    if (url.includes('/activity/api/v1/logs/download?id=42')) {
      return {
        status: 200,
        raw: 'log text',
        headers: { 'content-disposition': 'attachment; filename="execution-42.log"' },
      };
    }
    if (url.endsWith('/events/api/v1/stream')) return live.reply();
    return undefined;
  });
}

beforeEach(async () => {
  await resetEnvironment('pt');
  Object.assign(URL, {
    createObjectURL: vi.fn(() => 'blob:thumb'),
    revokeObjectURL: vi.fn(),
  });
});

describe('execution evidence and log tools', { timeout: 20_000 }, () => {
  it('lists the artifacts, shows images as thumbnails fetched with the session, and downloads', async () => {
    const { calls } = await openEvidence();
    expect(screen.getByRole('tab', { name: /Evidências/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const list = await screen.findByRole('list', { name: 'Arquivos de evidência' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(callsTo(calls, '/activity/api/v1/artifact/index')[0]?.body).toEqual({ id: 42 });
    await waitFor(() => expect(calls.map((c) => c.url).join(' ')).toContain('inline=1'));
    const image = await screen.findByRole('img', { name: 'tela.png' });
    expect(image).toHaveAttribute('src', 'blob:thumb');
    const thumb = calls.find((c) => c.url.includes('artifact/download?id=7&inline=1'));
    expect(thumb?.headers.get('Authorization')).toMatch(/^Bearer /);
    // Only PNG, JPEG, GIF and WebP are previewed: the SVG and the CSV are never fetched inline.
    expect(calls.some((c) => c.url.includes('id=9'))).toBe(false);
    expect(screen.queryByRole('img', { name: 'page.svg' })).toBeNull();
    expect(screen.getByText('text/csv · 12 B')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Baixar relatorio.csv' }));
    await waitFor(() =>
      expect(calls.some((c) => c.url.endsWith('artifact/download?id=8'))).toBe(true),
    );
  });

  it('searches the log on the server and downloads it as a file', async () => {
    const { calls } = await openEvidence('/activity/42?tab=logs');
    const box = await screen.findByRole('textbox', { name: 'Buscar no log' });
    fireEvent.change(box, { target: { value: 'Fatura' } });
    await waitFor(() =>
      expect(
        callsTo(calls, '/activity/api/v1/logs').some(
          (c) => (c.body as { search?: string }).search === 'Fatura',
        ),
      ).toBe(true),
    );
    expect(await screen.findByText('Nenhuma linha contém este texto.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Baixar' }));
    await waitFor(() =>
      expect(calls.some((c) => c.url.endsWith('/logs/download?id=42'))).toBe(true),
    );
  });
});
