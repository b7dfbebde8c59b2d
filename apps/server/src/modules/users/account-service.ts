import type { Db } from '../../db/client.js';
import {
  findAccount,
  findUserByEmail,
  findUserById,
  findUserByIdentifier,
  insertAccount,
  lockUser,
  repairSelectedClient,
  setPassword,
  setSelectedClient,
} from './repository.js';

/**
 * The account rows other modules work with (sign-in, recovery, memberships), apart from the
 * users area's UserService so that memberships (UserClientService), which UserService uses,
 * can use these without a cycle. Methods taking `db` run in the caller's transaction.
 */
export class AccountService {
  constructor(private readonly db: Db) {}

  /** By access identifier or email (both stored lower-case), with the password hash. */
  byIdentifier(identifier: string) {
    return findUserByIdentifier(this.db, identifier);
  }

  byEmail(email: string) {
    return findUserByEmail(this.db, email);
  }

  /** An account created at its first OpenID Connect sign-in (the caller audits it). */
  create(db: Db, values: Parameters<typeof insertAccount>[1]) {
    return insertAccount(db, values);
  }

  /** With the password hash: for checking a password, never for an answer. */
  withPassword(db: Db, usersId: number) {
    return findUserById(db, usersId);
  }

  /** Everything but the password hash. */
  find(db: Db, usersId: number) {
    return findAccount(db, usersId);
  }

  /** A new password; `changeRequired` when someone else set it and the user must replace it. */
  setPassword(db: Db, usersId: number, passwordHash: string, changeRequired = false) {
    return setPassword(db, usersId, passwordHash, changeRequired);
  }

  setSelectedClient(usersId: number, clientId: number | null) {
    return setSelectedClient(this.db, usersId, clientId);
  }

  /** Locks the user's row for the transaction `tx`: false when there is no such user. */
  lock(tx: Db, usersId: number) {
    return lockUser(tx, usersId);
  }

  /** After memberships changed: a selected client no longer theirs moves to their first one. */
  repairSelectedClient(db: Db, usersId: number) {
    return repairSelectedClient(db, usersId);
  }
}
