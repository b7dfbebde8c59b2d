import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { MFA_BASE } from './paths';

/** POST reset `{users_id}` (USUARIOS.UPDATE): the member enrols again; their sessions end. */
export function resetMfa(usersId: number): Promise<{ message: string }> {
  return api.post(`${MFA_BASE}/reset`, { users_id: usersId }, { announce: true });
}

export function useResetMfa() {
  return useMutation({ mutationFn: resetMfa });
}
