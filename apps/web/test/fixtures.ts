import type {
  MeResponse,
  Robot,
  RobotField,
  RobotVersion,
  SessionResponse,
  Task,
} from '@rota/contract';

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

export function makeRobot(overrides: Partial<Robot> = {}): Robot {
  return {
    rota_robots_id: 1,
    name: 'Faturas',
    description: 'Emite as faturas do dia',
    executor: 'python main.py',
    remote_root: null,
    active: true,
    current_version: null,
    rota_packages_id: null,
    follow_latest: false,
    task_sla_minutes: null,
    task_risk_minutes: null,
    task_retries: 0,
    stall_minutes: null,
    stall_action: 'flag',
    required_labels: [],
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-20T15:30:00.000Z',
    ...overrides,
  };
}

export function makeRobotField(overrides: Partial<RobotField> = {}): RobotField {
  return {
    rota_robot_fields_id: 1,
    rota_robots_id: 1,
    name: 'invoice',
    label: 'Invoice number',
    type: 'text',
    required: false,
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

export function makeRobotVersion(overrides: Partial<RobotVersion> = {}): RobotVersion {
  return {
    rota_robot_versions_id: 10,
    rota_packages_id: 1,
    rota_robots_id: 1,
    version: '1.0.0',
    notes: null,
    file_name: 'faturas-1.0.0.zip',
    format: 'zip',
    sha256: 'a'.repeat(64),
    size_bytes: 1536,
    current: false,
    signed_by: null,
    created_at: '2026-11-10T12:00:00.000Z',
    ...overrides,
  };
}

export function makeTask(overrides: Partial<Task> = {}): Task {
  return {
    rota_tasks_id: 100,
    rota_robots_id: 1,
    rota_robots_name: 'Faturas',
    label: 'Fatura 42',
    data: {},
    priority: 50,
    expiration_date: '2026-12-31T23:59:00.000Z',
    status: 'pending',
    business_error: null,
    attempts: 0,
    deadline: null,
    postpone_until: null,
    sla_state: null,
    finished_at: null,
    created_at: '2026-11-20T09:00:00.000Z',
    updated_at: '2026-11-20T09:00:00.000Z',
    ...overrides,
  };
}
