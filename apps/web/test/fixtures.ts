import type { MeResponse, SessionResponse } from '@rota/contract';

export function makeUser(overrides: Partial<MeResponse> = {}): MeResponse {
  return {
    users_id: 7,
    email: 'ana@example.com',
    name: 'Ana',
    last_name: 'Souza',
    permissions: [],
    password_change_required: false,
    clients: [{ rota_clients_id: 1, name: 'Acme' }],
    rota_clients_id_selected: 1,
    group: null,
    avatar: null,
    ...overrides,
  };
}

export function makeSession(overrides: Partial<SessionResponse> = {}): SessionResponse {
  const { avatar: _avatar, ...user } = makeUser();
  return { ...user, token: 'token-123', ...overrides };
}
