import type { RobotField } from '@rota/contract';

/** A value of each field type that the robot's checks accept, to show the shape. */
const SAMPLE: Record<RobotField['type'], unknown> = {
  text: 'text',
  number: 0,
  boolean: false,
  date: '2030-01-31',
  json: {},
};

/**
 * The example's task `data`: one value per field of the robot when it declares fields (its
 * required ones at least would be refused if missing), or any object when it declares none.
 */
export function exampleTaskData(
  fields: readonly RobotField[] | undefined,
): Record<string, unknown> {
  if (!fields || fields.length === 0) return { order: 1234 };
  return Object.fromEntries(fields.map((field) => [field.name, SAMPLE[field.type]]));
}

/**
 * A ready-to-run fire of a trigger: its token as Bearer, an Idempotency-Key (a repeat within 24 h
 * answers the first result instead of queuing again) and one task whose data fits the robot.
 */
export function triggerFireExample(
  token: string,
  fields?: readonly RobotField[],
  origin: string = window.location.origin,
): string {
  const body = JSON.stringify({ tasks: [{ label: 'Order 1234', data: exampleTaskData(fields) }] });
  return [
    `curl -X POST ${origin}/api/rota/trigger/api/v1/fire \\`,
    `  -H "Authorization: Bearer ${token}" \\`,
    `  -H "Idempotency-Key: order-1234" \\`,
    `  -H 'content-type: application/json' \\`,
    // A JSON text of the robot's field names: in single quotes, a quote in a name is escaped.
    `  -d '${body.replaceAll("'", "'\\''")}'`,
  ].join('\n');
}
