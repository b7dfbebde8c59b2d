import { useMutation } from '@tanstack/react-query';
import type { EnvironmentTestResult } from '@rota/contract';
import { api } from '../../../lib/http';
import { ENVIRONMENT_BASE } from './paths';

/**
 * POST test `{id}` → `{data: {ok, message, duration_ms}}`: the server tries the PostgreSQL the
 * environment describes (5 s at most). A failed connection is `ok: false`, not an HTTP error.
 */
export async function testEnvironment(id: number): Promise<EnvironmentTestResult> {
  const answer = await api.post<{ data: EnvironmentTestResult }>(`${ENVIRONMENT_BASE}/test`, {
    id,
  });
  return answer.data;
}

export function useTestEnvironment() {
  return useMutation({ mutationFn: testEnvironment });
}
