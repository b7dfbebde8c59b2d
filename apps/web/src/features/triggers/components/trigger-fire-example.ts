/**
 * A ready-to-run fire of a trigger: its token as Bearer, an Idempotency-Key (a repeat within 24 h
 * answers the first result instead of queuing again) and one task. Its `data` is left empty: keys
 * must be the robot's fields.
 */
export function triggerFireExample(token: string, origin: string = window.location.origin): string {
  return [
    `curl -X POST ${origin}/api/rota/trigger/api/v1/fire \\`,
    `  -H "Authorization: Bearer ${token}" \\`,
    `  -H "Idempotency-Key: order-1234" \\`,
    `  -H 'content-type: application/json' \\`,
    `  -d '{"tasks":[{"label":"Order 1234","data":{}}]}'`,
  ].join('\n');
}
