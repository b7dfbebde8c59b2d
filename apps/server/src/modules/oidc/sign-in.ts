import type { FastifyBaseLogger } from 'fastify';
import type { OidcErrorCode, SessionResponse } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { hashPassword } from '../../lib/passwords.js';
import { generateToken } from '../../lib/tokens.js';
import type { AuditAuthor, AuditService } from '../audit/service.js';
import type { AuthService, RequestMeta } from '../auth/service.js';
import type { UserClientService } from '../user-clients/service.js';
import type { AccountService } from '../users/account-service.js';
import type { OidcClaims } from './oidc-client.js';
import { mappedClientIds, mappingsFor } from './repository.js';

/** A sign-in the callback refuses: the browser lands on the sign-in page with this code. */
export class OidcFailure extends Error {
  constructor(
    readonly code: OidcErrorCode,
    detail: string,
  ) {
    super(detail);
    this.name = 'OidcFailure';
  }
}

export interface OidcSignInDeps {
  db: Db;
  groupsClaim: string;
  accounts: AccountService;
  userClients: UserClientService;
  auth: AuthService;
  audit: AuditService;
  logger: FastifyBaseLogger;
}

/** A claim's values: a list of strings, or one string (some providers send a single group). */
function valuesOf(claim: unknown): string[] {
  if (typeof claim === 'string') return [claim];
  if (Array.isArray(claim)) return claim.filter((v): v is string => typeof v === 'string');
  return [];
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * Who a verified ID token is: the account linked to its `sub`; else the account
 * with its email when the provider vouches for the address (the `sub` is then linked); else a
 * new account when the mappings give it a client. Every sign-in then sets its memberships in
 * mapped clients from the claim, and opens a session like a password sign-in (method `oidc`).
 */
export class OidcSignInService {
  constructor(private readonly deps: OidcSignInDeps) {}

  async signIn(
    claims: OidcClaims,
    meta: RequestMeta,
    author: AuditAuthor,
  ): Promise<SessionResponse> {
    const { db, accounts, userClients, audit } = this.deps;
    const sub = claims.sub;
    const email = text(claims.email).toLowerCase() || null;
    const verified = claims.email_verified === true || claims.email_verified === 'true';

    // The first mapping of a client wins when several of the user's groups map to it.
    const wanted = new Map<number, number>();
    for (const m of await mappingsFor(db, valuesOf(claims[this.deps.groupsClaim]))) {
      if (!wanted.has(m.rota_clients_id)) wanted.set(m.rota_clients_id, m.profiles_id);
    }
    const mapped = await mappedClientIds(db);

    let user = await accounts.bySubject(db, sub);
    let link = false;
    if (!user && email) {
      const byEmail = await accounts.byEmail(email);
      if (byEmail) {
        // An unverified address could be anyone's: never a key to an existing account.
        if (!verified) throw new OidcFailure('oidc_email_unverified', 'email not verified');
        if (byEmail.oidc_subject) {
          throw new OidcFailure('oidc_failed', 'the account is linked to another subject');
        }
        user = byEmail;
        link = true;
      }
    }
    if (!user && wanted.size === 0) {
      throw new OidcFailure('oidc_no_access', 'unknown user and no mapped client');
    }
    if (!user && !email) throw new OidcFailure('oidc_failed', 'no email claim to create the user');

    const usersId = await db.transaction(async (tx) => {
      let id: number;
      if (user) {
        id = user.users_id;
        if (link) await accounts.linkSubject(tx, id, sub);
      } else {
        const [firstClient] = wanted.keys();
        const given = text(claims.given_name);
        const family = text(claims.family_name);
        const values = {
          name: (given || text(claims.name) || email!.split('@')[0]!).slice(0, 100),
          last_name: (given ? family : '').slice(0, 100),
          email: email!,
          access: email!,
          // Nobody knows it: the account signs in through its provider (or a password reset).
          password_hash: await hashPassword(generateToken()),
          rota_clients_id_selected: firstClient!,
        };
        id = await accounts.create(tx, values);
        await accounts.linkSubject(tx, id, sub);
        await audit.write(tx, author, {
          action: 'create',
          entity: 'user',
          entity_id: id,
          clientId: firstClient!,
          after: {
            users_id: id,
            name: values.name,
            last_name: values.last_name,
            email,
            oidc: true,
          },
          user: { users_id: id, name: values.name, last_name: values.last_name },
        });
      }
      const who = await accounts.find(tx, id);
      const entryUser = who
        ? { users_id: id, name: who.name, last_name: who.last_name }
        : undefined;
      // Memberships in mapped clients follow the claim; other clients are the administrators'.
      const current = await userClients.clientsOf(tx, id);
      for (const clientId of mapped) {
        const want = wanted.get(clientId);
        const have = current.find((m) => m.rota_clients_id === clientId);
        const record = (action: 'create' | 'update' | 'delete', entityId: number) =>
          audit.write(tx, author, {
            action,
            entity: 'user_client',
            entity_id: entityId,
            clientId,
            ...(action === 'delete'
              ? {
                  before: {
                    users_id: id,
                    rota_clients_id: clientId,
                    profiles_id: have?.profiles_id,
                  },
                }
              : { after: { users_id: id, rota_clients_id: clientId, profiles_id: want } }),
            ...(entryUser ? { user: entryUser } : {}),
          });
        if (want !== undefined && !have) {
          const created = await userClients.add(tx, {
            users_id: id,
            rota_clients_id: clientId,
            profiles_id: want,
          });
          await record('create', created);
        } else if (want !== undefined && have && have.profiles_id !== want) {
          await userClients.setProfile(tx, have.user_clients_id, want);
          await record('update', have.user_clients_id);
        } else if (want === undefined && have) {
          await userClients.end(tx, { ...have, users_id: id });
          await record('delete', have.user_clients_id);
        }
      }
      await accounts.repairSelectedClient(tx, id);
      return id;
    });

    if ((await userClients.clientsOf(db, usersId)).length === 0) {
      throw new OidcFailure('oidc_no_access', 'the user belongs to no client');
    }
    const account = await accounts.withPassword(db, usersId);
    if (!account) throw new OidcFailure('oidc_failed', 'the account vanished');
    return this.deps.auth.issueSession(account, meta, author, 'oidc');
  }
}
