// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Language } from '@rota/contract';
import { clientsProbe, makeAccount, makeProfile } from '../../../test/admin-fixtures';
import { callsTo, listOf, openPage } from '../../../test/operations-fixtures';
import { resetEnvironment } from '../../../test/render';

const bruno = makeAccount();
const ana = makeAccount({ users_id: 7, name: 'Ana', last_name: 'Souza', access: 'ana' });

async function openUsers(permissions: string[], lang: Language) {
  const probe = clientsProbe(false);
  return openPage(
    '/user',
    /^(Usuários|Users)$/,
    permissions,
    (call) => {
      const probed = probe(call);
      if (probed) return probed;
      if (call.url.endsWith('/user/api/v1/index'))
        return { status: 200, body: listOf([ana, bruno]) };
      if (call.url.endsWith('/user/profile/api/v1/index'))
        return { status: 200, body: listOf([makeProfile()]) };
      if (call.url.endsWith('/user/mfa/api/v1/reset'))
        return { status: 200, body: { message: 'Second factor reset' } };
      return undefined;
    },
    lang,
  );
}

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('resetting a member’s two-step verification', { timeout: 30_000 }, () => {
  it('asks first, then resets it (pt)', async () => {
    const { user, calls } = await openUsers(['USUARIOS.LIST', 'USUARIOS.UPDATE'], 'pt');
    const name = `${bruno.name} ${bruno.last_name}`;
    await user.click(await screen.findByRole('button', { name: `Ações de ${name}` }));
    await user.click(
      await screen.findByRole('menuitem', { name: 'Redefinir verificação em duas etapas' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: `Redefinir a verificação em duas etapas de “${name}”?`,
    });
    expect(callsTo(calls, '/user/mfa/api/v1/reset')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Redefinir' }));
    await waitFor(() => expect(callsTo(calls, '/user/mfa/api/v1/reset')).toHaveLength(1));
    expect(callsTo(calls, '/user/mfa/api/v1/reset')[0]?.body).toEqual({
      users_id: bruno.users_id,
    });
  });

  it('is offered only with USUARIOS.UPDATE and never on oneself (en)', async () => {
    const { user } = await openUsers(['USUARIOS.LIST', 'USUARIOS.UPDATE'], 'en');
    await user.click(await screen.findByRole('button', { name: 'Actions for Ana Souza' }));
    await screen.findByRole('menuitem', { name: 'Edit' });
    expect(screen.queryByRole('menuitem', { name: 'Reset two-step verification' })).toBeNull();
  });

  it('is not offered without USUARIOS.UPDATE (en)', async () => {
    await openUsers(['USUARIOS.LIST'], 'en');
    await screen.findByRole('table', { name: 'Users' });
    expect(screen.queryByRole('button', { name: /^Actions for/ })).toBeNull();
  });
});
