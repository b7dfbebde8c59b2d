// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Environment, Language } from '@rota/contract';
import type { MockCall, MockReply } from '../../../test/http-mock';
import { callsTo, listOf, openPage, openRowAction } from '../../../test/operations-fixtures';
import { resetEnvironment } from '../../../test/render';
import en from './locales/en.json';
import pt from './locales/pt.json';

const ALL = ['USUARIOS.LIST', 'USUARIOS.CREATE', 'USUARIOS.UPDATE', 'USUARIOS.DELETE'];
const STAMP = '2024-05-01T12:00:00.000Z';

function makeEnvironment(overrides: Partial<Environment> = {}): Environment {
  return {
    rota_environments_id: 1,
    title: 'Produção',
    db_url: 'db.acme.local',
    db_name: 'erp',
    db_user: 'robo',
    db_port: 5433,
    rota_api_url: 'https://rota.acme.local/api',
    has_db_pass: true,
    has_rota_token: false,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

const production = makeEnvironment();
// A server that (wrongly) sent a secret's text must still not get it on screen or in a form.
const leaky = {
  ...makeEnvironment({
    rota_environments_id: 2,
    title: 'Homologação',
    db_url: null,
    db_name: null,
    db_user: null,
    db_port: null,
    rota_api_url: null,
    has_db_pass: true,
    has_rota_token: true,
  }),
  db_pass: 'senha-que-vazou',
  rota_token: 'token-que-vazou',
};

async function openEnvironments(
  permissions: string[],
  options: { lang?: Language; reply?: (call: MockCall) => MockReply | undefined } = {},
) {
  return openPage(
    '/env',
    /Ambiente|Environment/,
    permissions,
    (call) => {
      const special = options.reply?.(call);
      if (special) return special;
      const { url, body } = call;
      if (url.endsWith('/rota/env/api/v1/index')) {
        return { status: 200, body: listOf([production, leaky]) };
      }
      if (url.endsWith('/rota/env/api/v1/create')) {
        const input = body as { title: string };
        return {
          status: 201,
          body: {
            message: 'Criado!',
            data: makeEnvironment({ rota_environments_id: 3, title: input.title }),
          },
        };
      }
      if (url.endsWith('/rota/env/api/v1/update')) return { status: 204 };
      if (url.endsWith('/rota/env/api/v1/delete')) {
        return { status: 202, body: { message: 'Removido!' } };
      }
      return undefined;
    },
    options.lang,
  );
}

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('/env', { timeout: 20_000 }, () => {
  it('lists the environments with their database and whether each secret is set', async () => {
    const { calls } = await openEnvironments(ALL);
    const table = await screen.findByRole('table', { name: 'Ambientes' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('Produção')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('robo@db.acme.local:5433/erp')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('https://rota.acme.local/api')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Senha definida')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Token não definido')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Token definido')).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent('vazou');
    expect(callsTo(calls, '/rota/env/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'title',
      order: 'asc',
    });
  });

  it('hides "Novo ambiente" and the row actions from a user who may only list', async () => {
    await openEnvironments(['USUARIOS.LIST']);
    await screen.findByRole('table', { name: 'Ambientes' });
    expect(screen.queryByRole('button', { name: 'Novo ambiente' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ações de Produção' })).not.toBeInTheDocument();
  });

  it.each([
    [
      'pt',
      'Novo ambiente',
      'Criar ambiente',
      /^Título/,
      /^Porta/,
      /^Endereço da API/,
      {
        title: 'Título obrigatório',
        port: 'Entre 1 e 65535',
        url: 'Deve ser um endereço http(s)',
      },
    ],
    [
      'en',
      'New environment',
      'Create environment',
      /^Title/,
      /^Port/,
      /^API address/,
      {
        title: 'Required title',
        port: 'Between 1 and 65535',
        url: 'Must be an http(s) address',
      },
    ],
  ] as const)(
    'shows the contract’s messages under the fields in %s and sends nothing invalid',
    async (lang, title, submit, titleLabel, portLabel, urlLabel, messages) => {
      const { user, calls } = await openEnvironments(ALL, { lang });
      await user.click(await screen.findByRole('button', { name: title }));
      const drawer = await screen.findByRole('dialog', { name: title });
      await user.type(within(drawer).getByRole('textbox', { name: portLabel }), '70000');
      await user.type(within(drawer).getByRole('textbox', { name: urlLabel }), 'ftp://x');
      await user.click(within(drawer).getByRole('button', { name: submit }));
      expect(await within(drawer).findByText(messages.title)).toBeInTheDocument();
      expect(within(drawer).getByText(messages.port)).toBeInTheDocument();
      expect(within(drawer).getByText(messages.url)).toBeInTheDocument();
      expect(within(drawer).getByRole('textbox', { name: titleLabel })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      expect(callsTo(calls, '/create')).toHaveLength(0);
    },
  );

  it('creates with the secrets typed, as password inputs, and leaves out the empty ones', async () => {
    const { user, calls } = await openEnvironments(ALL);
    await user.click(await screen.findByRole('button', { name: 'Novo ambiente' }));
    const drawer = await screen.findByRole('dialog', { name: 'Novo ambiente' });
    await user.type(within(drawer).getByRole('textbox', { name: /^Título/ }), 'Teste');
    await user.type(within(drawer).getByRole('textbox', { name: /^Host/ }), 'pg.local');
    await user.type(within(drawer).getByRole('textbox', { name: /^Porta/ }), '5432');
    const password = within(drawer).getByLabelText(/^Senha do banco/);
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(within(drawer).getByLabelText(/^Token da API/)).toHaveAttribute('type', 'password');
    await user.type(password, 's3cr3t');
    await user.click(within(drawer).getByRole('button', { name: 'Criar ambiente' }));
    await waitFor(() => expect(callsTo(calls, '/create')).toHaveLength(1));
    expect(callsTo(calls, '/create')[0]?.body).toEqual({
      title: 'Teste',
      db_url: 'pg.local',
      db_port: 5432,
      db_name: null,
      db_user: null,
      db_pass: 's3cr3t',
      rota_api_url: null,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('never fills in a secret when editing: says whether it is set, keeps it unless replaced', async () => {
    const { user, calls } = await openEnvironments(ALL);
    await openRowAction(user, 'Homologação', 'Editar');
    const drawer = await screen.findByRole('dialog', { name: 'Editar ambiente' });
    const password = within(drawer).getByLabelText(/^Senha do banco \(substituir\)/);
    const token = within(drawer).getByLabelText(/^Token da API \(substituir\)/);
    expect(password).toHaveValue('');
    expect(token).toHaveValue('');
    expect(password).toHaveAttribute('type', 'password');
    // The state agrees with each secret's noun: "a senha … definida", "o token … definido".
    expect(within(drawer).getAllByText(/Atual: definida\./)).toHaveLength(1);
    expect(within(drawer).getAllByText(/Atual: definido\./)).toHaveLength(1);
    expect(document.body).not.toHaveTextContent('vazou');
    expect(within(drawer).queryAllByDisplayValue(/vazou/)).toHaveLength(0);

    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/update')).toHaveLength(1));
    expect(callsTo(calls, '/update')[0]?.body).toEqual({
      id: 2,
      title: 'Homologação',
      db_url: null,
      db_port: null,
      db_name: null,
      db_user: null,
      rota_api_url: null,
    });
  });

  it('replaces one secret and removes the other', async () => {
    const { user, calls } = await openEnvironments(ALL);
    await openRowAction(user, 'Homologação', 'Editar');
    const drawer = await screen.findByRole('dialog', { name: 'Editar ambiente' });
    await user.type(within(drawer).getByLabelText(/^Senha do banco/), 'nova');
    const token = within(drawer).getByLabelText(/^Token da API \(substituir\)/);
    await user.click(within(drawer).getByRole('checkbox', { name: /Token da API$/ }));
    expect(token).toBeDisabled();
    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/update')).toHaveLength(1));
    expect(callsTo(calls, '/update')[0]?.body).toMatchObject({
      id: 2,
      db_pass: 'nova',
      rota_token: null,
    });
  });

  it('offers no secret removal when none is stored, and says "não definida"', async () => {
    const { user } = await openEnvironments(ALL);
    await openRowAction(user, 'Produção', 'Editar');
    const drawer = await screen.findByRole('dialog', { name: 'Editar ambiente' });
    expect(within(drawer).getByLabelText(/^Token da API$/)).toHaveValue('');
    expect(within(drawer).getByText(/Atual: não definido\./)).toBeInTheDocument();
    expect(within(drawer).getAllByRole('checkbox')).toHaveLength(1);
    expect(within(drawer).getByRole('textbox', { name: /^Porta/ })).toHaveValue('5433');
  });

  it('puts a duplicate title from the server under the title', async () => {
    const { user } = await openEnvironments(ALL, {
      reply: ({ url }) =>
        url.endsWith('/create')
          ? {
              status: 409,
              body: {
                code: 'conflict',
                message: 'Conflito',
                errors: [{ field: 'title', message: 'duplicate_environment_title' }],
              },
            }
          : undefined,
    });
    await user.click(await screen.findByRole('button', { name: 'Novo ambiente' }));
    const drawer = await screen.findByRole('dialog', { name: 'Novo ambiente' });
    await user.type(within(drawer).getByRole('textbox', { name: /^Título/ }), 'Produção');
    await user.click(within(drawer).getByRole('button', { name: 'Criar ambiente' }));
    expect(
      await within(drawer).findByText('Já existe um ambiente com este título'),
    ).toBeInTheDocument();
  });

  it('tests the connection and says the outcome', async () => {
    let ok = true;
    const { user, calls } = await openEnvironments(ALL, {
      reply: ({ url }) =>
        url.endsWith('/rota/env/api/v1/test')
          ? {
              status: 200,
              body: {
                data: ok
                  ? { ok: true, message: 'Conectado: PostgreSQL 15.8', duration_ms: 42 }
                  : {
                      ok: false,
                      message: 'connect ECONNREFUSED 10.0.0.9:5433',
                      duration_ms: 3,
                    },
              },
            }
          : undefined,
    });
    await openRowAction(user, 'Produção', 'Testar conexão');
    expect(await screen.findByText('Conexão bem-sucedida: Produção')).toBeInTheDocument();
    expect(screen.getByText(/Conectado: PostgreSQL 15\.8/)).toBeInTheDocument();
    expect(callsTo(calls, '/test')[0]?.body).toEqual({ id: 1 });

    ok = false;
    await openRowAction(user, 'Produção', 'Testar conexão');
    expect(await screen.findByText('Falha na conexão: Produção')).toBeInTheDocument();
    expect(screen.getByText(/connect ECONNREFUSED 10\.0\.0\.9:5433/)).toBeInTheDocument();
  });

  it('asks for the password again when the target changed since it was saved', async () => {
    const { user, calls } = await openEnvironments(ALL, {
      reply: ({ url, body }) => {
        if (!url.endsWith('/rota/env/api/v1/test')) return undefined;
        return (body as { db_pass?: string }).db_pass === undefined
          ? {
              status: 400,
              body: {
                code: 'invalid_input',
                message: 'Alguns campos não são válidos',
                errors: [
                  {
                    field: 'db_pass',
                    message:
                      'O host, a porta, o usuário ou o banco mudaram desde que a senha foi salva: digite a senha novamente',
                  },
                ],
              },
            }
          : {
              status: 200,
              body: { data: { ok: true, message: 'Conectado: PostgreSQL 15.8', duration_ms: 9 } },
            };
      },
    });
    await openRowAction(user, 'Produção', 'Testar conexão');
    const dialog = await screen.findByRole('dialog', { name: 'Testar “Produção” com a senha' });
    expect(within(dialog).getByText(/digite a senha novamente/)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/Senha do banco/), 'typed-again');
    await user.click(within(dialog).getByRole('button', { name: 'Testar conexão' }));
    expect(await screen.findByText('Conexão bem-sucedida: Produção')).toBeInTheDocument();
    expect(callsTo(calls, '/test').map((c) => c.body)).toEqual([
      { id: 1 },
      { id: 1, db_pass: 'typed-again' },
    ]);
  });

  it('asks before deleting, naming the environment', async () => {
    const { user, calls } = await openEnvironments(ALL);
    await openRowAction(user, 'Produção', 'Excluir');
    const dialog = await screen.findByRole('dialog', { name: 'Excluir o ambiente “Produção”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(callsTo(calls, '/delete')).toHaveLength(1));
    expect(callsTo(calls, '/delete')[0]?.body).toEqual({ id: 1 });
  });
});

describe('the environments strings', () => {
  const keys = (tree: object, prefix = ''): string[] =>
    Object.entries(tree).flatMap(([key, value]) =>
      value && typeof value === 'object'
        ? keys(value as object, `${prefix}${key}.`)
        : [`${prefix}${key}`],
    );
  it('have the same keys in pt and en', () => {
    expect(keys(pt).sort()).toEqual(keys(en).sort());
  });
});
