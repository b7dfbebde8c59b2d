import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Language } from '@rota/contract';
import type { MockCall } from './http-mock';
import { resetEnvironment } from './render';
import { callsTo, listOf, makeParameter, openPage } from './operations-fixtures';

const ALL = ['PARAMETROS.LIST', 'PARAMETROS.CREATE', 'PARAMETROS.UPDATE', 'PARAMETROS.DELETE'];

const erpUrl = makeParameter();
// A server that (wrongly) sent a password's text must still not get it on screen.
const erpPassword = makeParameter({
  rota_parameters_id: 2,
  name: 'ERP_PASSWORD',
  value: 'segredo-que-vazou',
  has_password: true,
  description: null,
});

async function openParameters(permissions: string[], lang: Language = 'pt') {
  return openPage(
    '/parameter',
    /Parâmetros|Parameters/,
    permissions,
    ({ url, body }: MockCall) => {
      if (url.endsWith('/rota/parameter/api/v1/index')) {
        return { status: 200, body: listOf([erpUrl, erpPassword]) };
      }
      if (url.endsWith('/rota/parameter/api/v1/create')) {
        const input = body as { name: string; password?: string };
        return {
          status: 201,
          body: {
            message: 'Criado!',
            data: makeParameter({
              rota_parameters_id: 3,
              name: input.name,
              value: input.password ? null : 'x',
              has_password: !!input.password,
            }),
          },
        };
      }
      if (url.endsWith('/rota/parameter/api/v1/update')) return { status: 204 };
      if (url.endsWith('/rota/parameter/api/v1/delete')) {
        return { status: 202, body: { message: 'Removido!' } };
      }
      return undefined;
    },
    lang,
  );
}

/** An empty value is a missing value ("not both" is only for both, which the form cannot send). */
const EMPTY = {
  pt: 'Valor obrigatório (ou uma senha)',
  en: 'Required value (or a password)',
};

/** The characters a parameter's name may have, and why. */
const NAME_RULE = {
  pt: 'Use letras, dígitos e "_", começando por uma letra: o robô o lê como ROTA_PARAM_<NOME>',
  en: 'Use letters, digits and "_", starting with a letter: the robot reads it as ROTA_PARAM_<NAME>',
};

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('/parameter', { timeout: 20_000 }, () => {
  it('lists values, and passwords only as a mask with a lock badge', async () => {
    const { calls } = await openParameters(ALL);
    const table = await screen.findByRole('table', { name: 'Parâmetros' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('ERP_URL')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('https://erp.example.com')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Endereço do ERP')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('••••••••')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Senha')).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent('segredo-que-vazou');
    expect(callsTo(calls, '/parameter/api/v1/index')[0]?.body).toEqual({
      page: 1,
      per_page: 20,
      sort: 'name',
      order: 'asc',
    });
  });

  it('hides "Novo parâmetro" and the row actions from a user who may only list', async () => {
    await openParameters(['PARAMETROS.LIST']);
    await screen.findByRole('table', { name: 'Parâmetros' });
    expect(screen.queryByRole('button', { name: 'Novo parâmetro' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ações de ERP_URL' })).not.toBeInTheDocument();
  });

  it('switches between the value and the password input, and sends only the chosen one', async () => {
    const { user, calls } = await openParameters(ALL);
    await user.click(await screen.findByRole('button', { name: 'Novo parâmetro' }));
    const drawer = await screen.findByRole('dialog', { name: 'Novo parâmetro' });
    const kind = within(drawer).getByRole('radiogroup', { name: 'Valor ou senha' });
    expect(within(kind).getByRole('radio', { name: 'Valor' })).toBeChecked();
    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'ERP_TOKEN');
    await user.type(within(drawer).getByRole('textbox', { name: /^Valor do parâmetro/ }), 'abc');

    await user.click(within(kind).getByRole('radio', { name: 'Senha' }));
    expect(within(drawer).queryByRole('textbox', { name: /^Valor do parâmetro/ })).toBeNull();
    const password = within(drawer).getByLabelText(/^Senha do parâmetro/);
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    await user.type(password, 's3cr3t');
    await user.click(within(drawer).getByRole('button', { name: 'Criar parâmetro' }));

    await waitFor(() => expect(callsTo(calls, '/create')).toHaveLength(1));
    // The typed value stayed behind: never both.
    expect(callsTo(calls, '/create')[0]?.body).toEqual({
      name: 'ERP_TOKEN',
      password: 's3cr3t',
      description: null,
    });
  });

  it.each([
    ['pt', 'Novo parâmetro', 'Criar parâmetro', /^Nome/, 'Senha'],
    ['en', 'New parameter', 'Create parameter', /^Name/, 'Password'],
  ] as const)(
    'says in %s that a parameter needs a value or a password, and which names it takes',
    async (lang, title, submit, nameLabel, passwordKind) => {
      const { user, calls } = await openParameters(ALL, lang);
      await user.click(await screen.findByRole('button', { name: title }));
      const drawer = await screen.findByRole('dialog', { name: title });
      await user.type(within(drawer).getByRole('textbox', { name: nameLabel }), 'VAZIO');
      await user.click(within(drawer).getByRole('button', { name: submit }));
      expect(await within(drawer).findByText(EMPTY[lang])).toBeInTheDocument();
      // With the password input chosen, the message follows it.
      await user.click(within(drawer).getByRole('radio', { name: passwordKind }));
      await user.click(within(drawer).getByRole('button', { name: submit }));
      expect(await within(drawer).findByText(EMPTY[lang])).toBeInTheDocument();
      // A name the robot could not read as ROTA_PARAM_<NAME> is refused, saying what is allowed.
      const name = within(drawer).getByRole('textbox', { name: nameLabel });
      await user.clear(name);
      await user.type(name, 'db.host');
      await user.click(within(drawer).getByRole('button', { name: submit }));
      expect(await within(drawer).findByText(NAME_RULE[lang])).toBeInTheDocument();
      expect(callsTo(calls, '/create')).toHaveLength(0);
    },
  );

  it('never fills in a password when editing, and keeps it unless it is replaced', async () => {
    const { user, calls } = await openParameters(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de ERP_PASSWORD' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const drawer = await screen.findByRole('dialog', { name: 'Editar parâmetro' });
    expect(within(drawer).getByRole('radio', { name: 'Senha' })).toBeChecked();
    expect(within(drawer).getByLabelText(/^Senha atual/)).toHaveValue('••••••••');
    const replace = within(drawer).getByLabelText(/^Substituir senha/);
    expect(replace).toHaveValue('');
    expect(replace).toHaveAttribute('type', 'password');
    // Not even behind the value input.
    await user.click(within(drawer).getByRole('radio', { name: 'Valor' }));
    expect(within(drawer).getByRole('textbox', { name: /^Valor do parâmetro/ })).toHaveValue('');
    await user.click(within(drawer).getByRole('radio', { name: 'Senha' }));

    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/update')).toHaveLength(1));
    expect(callsTo(calls, '/update')[0]?.body).toEqual({
      id: 2,
      name: 'ERP_PASSWORD',
      description: null,
    });
    expect(document.body).not.toHaveTextContent('segredo-que-vazou');
  });

  it('sends the new password only when one is typed in "Substituir senha"', async () => {
    const { user, calls } = await openParameters(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de ERP_PASSWORD' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const drawer = await screen.findByRole('dialog', { name: 'Editar parâmetro' });
    await user.type(within(drawer).getByLabelText(/^Substituir senha/), 'nova-senha');
    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/update')).toHaveLength(1));
    expect(callsTo(calls, '/update')[0]?.body).toEqual({
      id: 2,
      name: 'ERP_PASSWORD',
      password: 'nova-senha',
      description: null,
    });
  });

  it('edits a value, and asks for a password before turning a value into one', async () => {
    const { user, calls } = await openParameters(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de ERP_URL' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const drawer = await screen.findByRole('dialog', { name: 'Editar parâmetro' });
    const value = within(drawer).getByRole('textbox', { name: /^Valor do parâmetro/ });
    expect(value).toHaveValue('https://erp.example.com');

    await user.click(within(drawer).getByRole('radio', { name: 'Senha' }));
    expect(within(drawer).queryByLabelText(/^Senha atual/)).toBeNull();
    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    expect(await within(drawer).findByText('Senha obrigatória')).toBeInTheDocument();
    expect(callsTo(calls, '/update')).toHaveLength(0);

    await user.click(within(drawer).getByRole('radio', { name: 'Valor' }));
    const again = within(drawer).getByRole('textbox', { name: /^Valor do parâmetro/ });
    await user.clear(again);
    await user.type(again, 'https://erp2.example.com');
    await user.click(within(drawer).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(callsTo(calls, '/update')).toHaveLength(1));
    expect(callsTo(calls, '/update')[0]?.body).toEqual({
      id: 1,
      name: 'ERP_URL',
      value: 'https://erp2.example.com',
      description: 'Endereço do ERP',
    });
  });

  it('asks before deleting, naming the parameter', async () => {
    const { user, calls } = await openParameters(ALL);
    await user.click(await screen.findByRole('button', { name: 'Ações de ERP_URL' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir o parâmetro “ERP_URL”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(callsTo(calls, '/delete')).toHaveLength(1));
    expect(callsTo(calls, '/delete')[0]?.body).toEqual({ id: 1 });
  });
});
