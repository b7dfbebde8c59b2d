import type { ClientSelect, PasswordUpdate } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { AppError, invalidField } from '../../lib/errors.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { Actor } from '../../http/types.js';
import { revokeUserSessions } from '../auth/session-repository.js';
import { findUserById, listMemberships, setPassword, setSelectedClient } from './repository.js';
import { invalidateUserCodes } from '../auth/reset-code-repository.js';

export class UserService {
  constructor(private readonly db: Db) {}

  /**
   * One's own password. The current one is asked again so a borrowed session cannot take the
   * account over; every other session of the user ends.
   */
  async updateOwnPassword(actor: Actor, input: PasswordUpdate): Promise<void> {
    const user = await findUserById(this.db, actor.user.users_id);
    if (!user) throw new AppError('unauthorized');
    if (!(await verifyPassword(input.current_password, user.password_hash))) {
      throw invalidField('current_password', 'current_password_wrong');
    }
    const passwordHash = await hashPassword(input.password);
    await this.db.transaction(async (tx) => {
      await setPassword(tx, user.users_id, passwordHash);
      await invalidateUserCodes(tx, user.users_id);
      await revokeUserSessions(tx, user.users_id, actor.sessionId);
    });
  }

  /** SPEC §7 client selection: only to a client the user belongs to. */
  async selectClient(actor: Actor, input: ClientSelect): Promise<void> {
    if (input.users_id !== actor.user.users_id) throw new AppError('forbidden');
    const memberships = await listMemberships(this.db, actor.user.users_id);
    if (!memberships.some((m) => m.rota_clients_id === input.rota_clients_id_selected)) {
      throw new AppError('client_not_member');
    }
    await setSelectedClient(this.db, actor.user.users_id, input.rota_clients_id_selected);
  }
}
