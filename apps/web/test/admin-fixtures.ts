import type { AccessRequest, AuditLog, Client, Profile, User } from '@rota/contract';
import type { MockCall, MockReply } from './http-mock';
import { listOf } from './operations-fixtures';

/** Fixtures for the users, profiles, clients and audit screens. */

const STAMP = '2026-11-20T12:00:00.000Z';

export function makeAccount(overrides: Partial<User> = {}): User {
  return {
    users_id: 20,
    name: 'Bruno',
    last_name: 'Lima',
    email: 'bruno@example.com',
    access: 'bruno.lima',
    group: 'Operações',
    sector: 'Financeiro',
    work: 'Analista',
    role: 'Operador',
    avatar: null,
    password_change_required: false,
    is_platform_admin: false,
    clients: [
      { rota_clients_id: 1, client_name: 'Acme', profiles_id: 3, profile_name: 'Operador' },
    ],
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

export function makeProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    profiles_id: 3,
    rota_clients_id: 1,
    name: 'Operador',
    permissions: ['ROBOS.LIST', 'ROBOS.CREATE'],
    users: 0,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

export function makeClient(overrides: Partial<Client> = {}): Client {
  return {
    rota_clients_id: 1,
    name: 'Acme',
    users: 4,
    retention_days: 90,
    audit_retention_days: 365,
    require_mfa: false,
    require_signed_packages: false,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

export function makeAccessRequest(overrides: Partial<AccessRequest> = {}): AccessRequest {
  return {
    access_requests_id: 5,
    name: 'Carla Dias Souza',
    email: 'Carla.Dias@example.com',
    client_name: 'Acme',
    message: 'Preciso acompanhar as execuções.',
    status: 'pending',
    ip: '10.0.0.1',
    created_at: STAMP,
    ...overrides,
  };
}

export function makeAuditLog(overrides: Partial<AuditLog> = {}): AuditLog {
  return {
    audit_logs_id: 100,
    rota_clients_id: 1,
    users_id: 7,
    user_name: 'Ana Souza',
    api_key_name: null,
    action: 'update',
    entity: 'robot',
    entity_id: '12',
    before: { name: 'Faturas', active: true, executor: 'python main.py' },
    after: { name: 'Faturas 2', active: true, executor: 'python main.py' },
    ip: '127.0.0.1',
    request_id: 'req-1',
    created_at: STAMP,
    ...overrides,
  };
}

export const FORBIDDEN: MockReply = {
  status: 403,
  body: { code: 'forbidden', message: 'Você não tem autorização!' },
};

/**
 * Answers the clients `index` the console asks to learn whether the user is a platform
 * administrator: a page of clients for one, 403 for anybody else.
 */
export function clientsProbe(admin: boolean, clients: Client[] = [makeClient()]) {
  return (call: MockCall): MockReply | undefined =>
    call.url.endsWith('/rota/client/api/v1/index')
      ? admin
        ? { status: 200, body: listOf(clients) }
        : FORBIDDEN
      : undefined;
}
