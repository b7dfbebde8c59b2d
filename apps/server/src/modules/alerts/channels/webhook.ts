import { createHmac } from 'node:crypto';
import type { AlertWebhookBody } from '@rota/contract';
import type { AlertMessage } from '../alert-message.js';
import { postJson, type OutboundOptions, type OutboundResult } from './outbound-http.js';

/** The exact bytes POSTed (and signed). */
export function webhookBody(message: AlertMessage): string {
  const body: AlertWebhookBody = {
    id: message.event_uid,
    type: message.type as AlertWebhookBody['type'],
    occurred_at: message.occurred_at,
    rota_clients_id: message.rota_clients_id,
    data: {
      ...message.data,
      count: message.count,
      url: message.url,
      robot_name: message.robot_name,
    },
  };
  return JSON.stringify(body);
}

export const signatureOf = (secret: string, raw: string) =>
  `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

/** POST the body, signed with the rule's secret; `X-Rota-Delivery` is stable across retries. */
export function sendWebhook(
  url: string,
  secret: string,
  message: AlertMessage,
  options?: OutboundOptions,
): Promise<OutboundResult> {
  const raw = webhookBody(message);
  return postJson(
    url,
    raw,
    {
      'Content-Type': 'application/json',
      'User-Agent': 'Rota',
      'X-Rota-Event': message.type,
      'X-Rota-Delivery': message.delivery_uid,
      'X-Rota-Signature': signatureOf(secret, raw),
    },
    options,
  );
}
