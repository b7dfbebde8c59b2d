import type { MantineColor } from '@mantine/core';
import type { AuditAction } from '@rota/contract';

/** The entities the server records (AuditEntry.entity), offered by the entity filter. */
export const AUDIT_ENTITIES = [
  'robot',
  'robot_version',
  'robot_field',
  'task',
  'scheduling',
  'scheduling_vm',
  'calendar',
  'execution',
  'parameter',
  'vm',
  'maintenance',
  'agent',
  'environment',
  'status_item',
  'user',
  'profile',
  'user_client',
  'team',
  'team_robot',
  'team_user',
  'client',
  'access_request',
  'session',
  'trigger',
  'api_key',
  'alert',
  'oidc_mapping',
  'oidc_identity',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

export function isAuditEntity(value: string | undefined): value is AuditEntity {
  return (AUDIT_ENTITIES as readonly string[]).includes(value ?? '');
}

export const AUDIT_ACTION_COLORS: Record<AuditAction, MantineColor> = {
  create: 'teal',
  update: 'blue',
  delete: 'red',
  sign_in: 'gray',
  sign_out: 'gray',
  password_change: 'grape',
  restore: 'teal',
  run: 'indigo',
  cancel: 'orange',
  rotate_token: 'yellow',
  stop: 'orange',
  mark_failed: 'red',
  revoke: 'red',
  mfa_enable: 'teal',
  mfa_disable: 'orange',
  mfa_recovery_codes: 'yellow',
  mfa_reset: 'grape',
  session_revoke: 'red',
  maintenance_start: 'orange',
  maintenance_end: 'teal',
};
