import { useMutation } from '@tanstack/react-query';
import type { EnvironmentTestResult } from '@rota/contract';
import { api } from '../../../lib/http';
import { ENVIRONMENT_BASE } from './paths';

/**
 * POST test `{id, db_pass?}` → `{data: {ok, message, duration_ms}}`: the server tries the
 * PostgreSQL the environment describes (5 s at most). A failed connection is `ok: false`, not an
 * HTTP error. The stored password goes only to the target it was saved for: after the host,
 * port, user or database changed, the server answers 400 on `db_pass` and the password is typed
 * again (`dbPass`, used for this try only).
 */
export async function testEnvironment({
  id,
  dbPass,
}: {
  id: number;
  dbPass?: string;
}): Promise<EnvironmentTestResult> {
  const answer = await api.post<{ data: EnvironmentTestResult }>(`${ENVIRONMENT_BASE}/test`, {
    id,
    ...(dbPass === undefined ? {} : { db_pass: dbPass }),
  });
  return answer.data;
}

export function useTestEnvironment() {
  return useMutation({ mutationFn: testEnvironment });
}
