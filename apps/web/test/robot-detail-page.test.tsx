import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../src/lib/session';
import { makeRobot, makeRobotField, makeRobotVersion, makeTask, makeUser } from './fixtures';
import { mockFetch, page, type MockCall, type MockReply } from './http-mock';
import { renderWithRouter, resetEnvironment } from './render';

const ALL = [
  'ROBOS.LIST',
  'ROBOS.CREATE',
  'ROBOS.UPDATE',
  'ROBOS.DELETE',
  'ATIVIDADES.LIST',
  'ATIVIDADES.CREATE',
];

const robot = makeRobot({
  current_version: { rota_robot_versions_id: 10, version: '1.2.0' },
  task_risk_minutes: 30,
  task_retries: 2,
});
const current = makeRobotVersion({
  version: '1.2.0',
  notes: 'Corrige o cálculo de juros',
  current: true,
  size_bytes: 1536,
  sha256: 'f'.repeat(64),
});
const older = makeRobotVersion({
  rota_robot_versions_id: 9,
  version: '1.1.0',
  file_name: 'old.tgz',
});

type Handler = (call: MockCall) => MockReply | undefined;

async function openRobot(
  path: string,
  options: { permissions?: string[]; handler?: Handler; robotReply?: MockReply } = {},
) {
  await resetEnvironment('pt');
  setToken('token');
  const { calls } = mockFetch((call) => {
    const custom = options.handler?.(call);
    if (custom) return custom;
    const { url } = call;
    if (url.endsWith('/me')) {
      return { status: 200, body: makeUser({ permissions: options.permissions ?? ALL }) };
    }
    if (url.endsWith('/robot/api/v1/show')) {
      return options.robotReply ?? { status: 200, body: { data: robot } };
    }
    if (url.endsWith('/robot/field/api/v1/index')) {
      return { status: 200, body: page([makeRobotField()]) };
    }
    if (url.endsWith('/robot/version/api/v1/index')) {
      return { status: 200, body: page([current, older]) };
    }
    if (url.endsWith('/robot/version/api/v1/show')) return { status: 200, body: { data: current } };
    if (url.endsWith('/task/api/v1/index')) return { status: 200, body: page([makeTask()]) };
    // The triggers section of the overview.
    if (url.endsWith('/trigger/api/v1/index')) return { status: 200, body: page([]) };
    throw new Error(`unexpected ${url}`);
  });
  const view = renderWithRouter({ path });
  return { ...view, calls };
}

const callsTo = (calls: MockCall[], suffix: string) => calls.filter((c) => c.url.endsWith(suffix));

beforeEach(async () => {
  await resetEnvironment('pt');
});

afterEach(() => {
  vi.restoreAllMocks();
});

// Page tests load the shell's and the page's chunks on first render.
describe('/robot/:id', { timeout: 20_000 }, () => {
  it('shows the robot’s name, its actions and the Overview tab with details and fields', async () => {
    const { calls } = await openRobot('/robot/1');
    expect(
      await screen.findByRole('heading', { name: 'Faturas', level: 1 }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voltar para robôs' })).toHaveAttribute(
      'href',
      '/robot',
    );
    expect(screen.getByRole('button', { name: 'Editar' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Excluir' })).toBeInTheDocument();
    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual(['Visão geral', 'Tarefas do robô', 'Versões']);
    expect(screen.getByRole('tab', { name: 'Visão geral' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(screen.getByText('python main.py')).toBeInTheDocument();
    expect(screen.getByText('30 minutos')).toBeInTheDocument();
    expect(screen.getByText('Novas tentativas após erro de aplicação')).toBeInTheDocument();
    const fields = await screen.findByRole('table', { name: 'Campos do robô' });
    expect(within(fields).getByText('invoice')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Novo campo' })).toBeInTheDocument();
    // What a task's data may hold, with fields and without.
    expect(
      screen.getByText(
        'Sem campos, uma tarefa pode levar qualquer objeto JSON como dados; quando o robô tem um campo, os dados de uma tarefa só podem ter os campos do robô, cada um do seu tipo.',
      ),
    ).toBeInTheDocument();
    expect(callsTo(calls, '/field/api/v1/index')[0]?.body).toMatchObject({ rota_robots_id: 1 });
    // Sidebar: the robots entry stays current on the detail page.
    const nav = screen.getByRole('navigation', { name: 'Navegação principal' });
    expect(within(nav).getByRole('link', { name: 'Robôs' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('keeps the tab in the URL', async () => {
    const { router, user } = await openRobot('/robot/1');
    await user.click(await screen.findByRole('tab', { name: 'Versões' }, { timeout: 5000 }));
    expect(router.state.location.search).toBe('?tab=versions');
    await user.click(screen.getByRole('tab', { name: 'Repositório' }));
    expect(router.state.location.search).toBe('?tab=versions&vtab=repository');
    await user.click(screen.getByRole('tab', { name: 'Tarefas do robô' }));
    expect(router.state.location.search).toBe('?tab=tasks');
  });

  it('opens on the tab the URL names: the robot’s tasks, with "Nova tarefa"', async () => {
    const { calls } = await openRobot('/robot/1?tab=tasks');
    expect(
      await screen.findByRole('tab', { name: 'Tarefas do robô' }, { timeout: 5000 }),
    ).toHaveAttribute('aria-selected', 'true');
    const table = await screen.findByRole('table', { name: 'Tarefas' });
    expect(within(table).getByText('Fatura 42')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Nova tarefa' })).toBeInTheDocument();
    expect(callsTo(calls, '/task/api/v1/index')[0]?.body).toMatchObject({ rota_robots_id: 1 });
    // Filtered to this robot: no robot filter nor robot column.
    expect(within(table).queryByRole('columnheader', { name: 'Robô' })).not.toBeInTheDocument();
    // The Tasks page, filtered to this robot, and each task's own page.
    expect(screen.getByRole('link', { name: 'Abrir na página de Tarefas' })).toHaveAttribute(
      'href',
      '/task?rota_robots_id=1',
    );
    expect(within(table).getByRole('link', { name: 'Fatura 42' })).toHaveAttribute(
      'href',
      '/task/100',
    );
  });

  it('shows the current version with its file details, and downloads it', async () => {
    const createObjectURL = vi.fn(() => 'blob:package');
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { calls, user } = await openRobot('/robot/1?tab=versions', {
      handler: ({ url }) =>
        url.endsWith('/download')
          ? {
              status: 200,
              raw: 'PK-bytes',
              headers: {
                'Content-Type': 'application/zip',
                'Content-Disposition': `attachment; filename="faturas.zip"; filename*=UTF-8''faturas%201.2.0.zip`,
              },
            }
          : undefined,
    });
    expect(
      await screen.findByRole('heading', { name: 'Versão 1.2.0' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('1,5 KB')).toBeInTheDocument();
    expect(screen.getByText('f'.repeat(64))).toBeInTheDocument();
    expect(screen.getByText('Corrige o cálculo de juros')).toBeInTheDocument();
    expect(callsTo(calls, '/version/api/v1/show')[0]?.body).toEqual({ id: 10 });

    await user.click(screen.getByRole('button', { name: 'Baixar' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const download = callsTo(calls, '/download')[0];
    expect(download?.method).toBe('POST');
    expect(download?.body).toEqual({ id: 10 });
    expect(download?.headers.get('Authorization')).toBe('Bearer token');
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('faturas 1.2.0.zip');
    expect(link.href).toBe('blob:package');
    // The answer's body as a Blob (undici's, under jsdom: not the window's Blob class).
    expect(createObjectURL).toHaveBeenCalledWith(expect.objectContaining({ size: 8 }));
    await waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:package'));
  });

  it('without a current version, points to the repository', async () => {
    const { router, user } = await openRobot('/robot/1?tab=versions', {
      robotReply: { status: 200, body: { data: makeRobot() } },
    });
    expect(
      await screen.findByText('Nenhuma versão atual', undefined, { timeout: 5000 }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Abrir o repositório' }));
    expect(router.state.location.search).toBe('?tab=versions&vtab=repository');
  });

  it('lists the repository with make current, download and delete per version', async () => {
    const { calls, user } = await openRobot('/robot/1?tab=versions&vtab=repository', {
      handler: ({ url }) => (url.endsWith('/version/api/v1/update') ? { status: 204 } : undefined),
    });
    const table = await screen.findByRole('table', { name: 'Versões' }, { timeout: 5000 });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(callsTo(calls, '/version/api/v1/index')[0]?.body).toEqual({
      rota_robots_id: 1,
      page: 1,
      per_page: 20,
      sort: 'created_at',
      order: 'desc',
    });
    // The current one cannot be made current again nor deleted.
    await user.click(screen.getByRole('button', { name: 'Ações de 1.2.0' }));
    expect(await screen.findByRole('menuitem', { name: 'Baixar' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Tornar atual' })).not.toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Excluir' })).toBeDisabled();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Ações de 1.1.0' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Tornar atual' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tornar a versão “1.1.0” atual?' });
    await user.click(within(dialog).getByRole('button', { name: 'Tornar atual' }));
    await waitFor(() => expect(callsTo(calls, '/version/api/v1/update')).toHaveLength(1));
    const update = callsTo(calls, '/version/api/v1/update')[0];
    expect(update?.method).toBe('PUT');
    expect(update?.body).toEqual({ id: 9, current: true });
  });

  it('uploads a version as multipart/form-data: text parts, then the file', async () => {
    const { calls, user } = await openRobot('/robot/1?tab=versions&vtab=repository', {
      handler: ({ url }) =>
        url.endsWith('/version/api/v1/create')
          ? { status: 201, body: { message: 'Criado!', data: makeRobotVersion() } }
          : undefined,
    });
    await user.click(
      await screen.findByRole('button', { name: 'Enviar versão' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Enviar versão' });
    await user.type(within(dialog).getByLabelText('Versão', { exact: false }), '2.0.0');
    await user.type(within(dialog).getByLabelText('Notas'), 'Nova API');
    const file = new File(['PK\u0003\u0004'], 'faturas-2.0.0.zip', { type: 'application/zip' });
    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]')!;
    await user.upload(input, file);
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));

    await waitFor(() => expect(callsTo(calls, '/version/api/v1/create')).toHaveLength(1));
    const create = callsTo(calls, '/version/api/v1/create')[0]!;
    expect(create.method).toBe('POST');
    expect(create.headers.get('Content-Type')).toBeNull();
    expect(create.headers.get('Authorization')).toBe('Bearer token');
    const form = create.form!;
    expect([...form.keys()]).toEqual(['rota_robots_id', 'version', 'notes', 'file']);
    expect(form.get('rota_robots_id')).toBe('1');
    expect(form.get('version')).toBe('2.0.0');
    expect(form.get('notes')).toBe('Nova API');
    const part = form.get('file') as File;
    expect(part.name).toBe('faturas-2.0.0.zip');
    expect(part.size).toBe(file.size);
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Enviar versão' })).not.toBeInTheDocument(),
    );
  });

  it('checks the upload before sending: version and file required, package format', async () => {
    const { calls, user } = await openRobot('/robot/1?tab=versions&vtab=repository');
    await user.click(
      await screen.findByRole('button', { name: 'Enviar versão' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Enviar versão' });
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(await within(dialog).findByText('Versão obrigatória')).toBeInTheDocument();
    expect(within(dialog).getByText('Arquivo obrigatório')).toBeInTheDocument();

    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]')!;
    fireEvent.change(input, { target: { files: [new File(['x'], 'robot.rar')] } });
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(
      await within(dialog).findByText('O pacote deve ser um arquivo .zip ou .tar.gz'),
    ).toBeInTheDocument();
    expect(callsTo(calls, '/version/api/v1/create')).toHaveLength(0);
  });

  it('puts the server’s upload errors under the fields (duplicate version, bad package)', async () => {
    const { user } = await openRobot('/robot/1?tab=versions&vtab=repository', {
      handler: ({ url }) =>
        url.endsWith('/version/api/v1/create')
          ? {
              status: 400,
              body: {
                code: 'invalid_input',
                message: 'Alguns campos não são válidos',
                errors: [
                  {
                    field: 'file',
                    message: 'O pacote está corrompido ou não é o arquivo que o nome indica',
                  },
                ],
              },
            }
          : undefined,
    });
    await user.click(
      await screen.findByRole('button', { name: 'Enviar versão' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Enviar versão' });
    await user.type(within(dialog).getByLabelText('Versão', { exact: false }), '2.0.0');
    await user.upload(
      dialog.querySelector<HTMLInputElement>('input[type="file"]')!,
      new File(['not a zip'], 'fake.zip'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(
      await within(dialog).findByText(
        'O pacote está corrompido ou não é o arquivo que o nome indica',
      ),
    ).toBeInTheDocument();
  });

  it('hides edit, delete, upload and field actions from a user who may only list', async () => {
    await openRobot('/robot/1?tab=versions&vtab=repository', { permissions: ['ROBOS.LIST'] });
    await screen.findByRole('table', { name: 'Versões' }, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: 'Editar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Excluir' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Enviar versão' })).not.toBeInTheDocument();
  });

  it('says so when the robot does not exist', async () => {
    await openRobot('/robot/99', {
      robotReply: { status: 404, body: { code: 'not_found', message: 'Não encontrado' } },
    });
    expect(
      await screen.findByText('Robô não encontrado', undefined, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voltar para robôs' })).toBeInTheDocument();
  });

  it('keeps /robot/field as the fields page, not a robot', async () => {
    await resetEnvironment('pt');
    setToken('token');
    mockFetch(({ url }) => {
      if (url.endsWith('/me')) return { status: 200, body: makeUser({ permissions: ALL }) };
      if (url.endsWith('/field/api/v1/index')) return { status: 200, body: page([]) };
      throw new Error(`unexpected ${url}`);
    });
    renderWithRouter({ path: '/robot/field' });
    expect(
      await screen.findByRole('heading', { name: 'Campos do robô', level: 1 }, { timeout: 5000 }),
    ).toBeInTheDocument();
  });
});
