import type { Mailer } from '../../../lib/mailer.js';
import { detailLinesOf, headlineOf, linkLabelOf, type AlertMessage } from '../alert-message.js';
import type { OutboundResult } from './outbound-http.js';

/** An email in the rule's language: "[Rota] Robô Faturas: erro de aplicação (3×)". */
export async function sendEmail(
  mailer: Mailer,
  to: string[],
  message: AlertMessage,
): Promise<OutboundResult> {
  const text = [
    headlineOf(message),
    '',
    ...detailLinesOf(message),
    '',
    `${linkLabelOf(message)}: ${message.url}`,
  ].join('\n');
  try {
    await mailer.send({ to: to.join(', '), subject: `[Rota] ${headlineOf(message)}`, text });
    return { ok: true, status: null, error: null };
  } catch (error) {
    // SMTP answers carry a code ("550 ..."); the transport's message names no secret.
    const code = (error as { responseCode?: number }).responseCode ?? null;
    const reason = (error as { code?: string }).code ?? 'smtp error';
    return { ok: false, status: code, error: String(reason).slice(0, 200) };
  }
}
