import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS, type AuditAction } from '@rota/contract';
import { AUDIT_ENTITIES, isAuditEntity, type AuditEntity } from './audit-labels';
import '../i18n';

export function isAuditAction(value: string | undefined): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value ?? '');
}

/** Human names of the recorded actions and entities; unknown ones are shown as recorded. */
export function useAuditLabels() {
  const { t } = useTranslation('audit');
  const actions = Object.fromEntries(
    AUDIT_ACTIONS.map((action) => [action, t(`actions.${action}`)]),
  ) as Record<AuditAction, string>;
  const entities = Object.fromEntries(
    AUDIT_ENTITIES.map((entity) => [entity, t(`entities.${entity}`)]),
  ) as Record<AuditEntity, string>;
  return {
    actions,
    entities,
    action: (value: string) => (isAuditAction(value) ? actions[value] : value),
    entity: (value: string) => (isAuditEntity(value) ? entities[value] : value),
  };
}
