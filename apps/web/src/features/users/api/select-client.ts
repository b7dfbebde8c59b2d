import type { ClientSelect } from '@rota/contract';
import { api } from '../../../lib/http';
import { USER_BASE } from './paths';

/**
 * PUT client_select → 204. Quiet: the page reloads on success, and a failure is reported by
 * the selector's own toast rather than a second popup.
 */
export function selectClient(body: ClientSelect): Promise<void> {
  return api.put<void>(`${USER_BASE}/client_select`, body, { quiet: true });
}
