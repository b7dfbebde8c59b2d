import type { FastifyBaseLogger } from 'fastify';
import type { OidcErrorCode, OidcLinkStatus, SessionResponse } from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../http/types.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { RateLimiter } from '../../lib/rate-limiter.js';
import { generateToken } from '../../lib/tokens.js';
import type { AuditAuthor, AuditService } from '../audit/service.js';
import type { AuthService, RequestMeta } from '../auth/service.js';
import type { UserClientService } from '../user-clients/service.js';
import type { AccountService } from '../users/account-service.js';
import type { OidcAttempt, OidcClaims, OidcSettings } from './oidc-client.js';
import {
  claimIdentity,
  deleteIdentity,
  findIdentity,
  identityOfUser,
  insertIdentity,
  mappedClientIds,
  mappingsFor,
} from './repository.js';

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

/** Wrong passwords at unlinking, per account per window: the password is no oracle. */
const UNLINK_FAILURES_PER_WINDOW = 5;
const UNLINK_WINDOW_SECONDS = 15 * 60;

/** A claim's values: a list of strings, or one string (some providers send a single group). */
function valuesOf(claim: unknown): string[] {
  if (typeof claim === 'string') return [claim];
  if (Array.isArray(claim)) return claim.filter((v): v is string => typeof v === 'string');
  return [];
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The issuer the identity belongs to: `iss`, which openid-client checked against discovery. */
const issuerOf = (claims: OidcClaims, settings: Pick<OidcSettings, 'issuer'>) =>
  typeof claims.iss === 'string' && claims.iss ? claims.iss : settings.issuer;

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

type Who = { users_id: number; name: string; last_name: string };
const whoOf = (u: Who): Who => ({ users_id: u.users_id, name: u.name, last_name: u.last_name });

/**
 * Who a verified ID token is, and linking identities to accounts.
 *
 * Sign-in: the account linked to the identity (`iss` + `sub`). An identity not linked yet whose
 * email (or access identifier) belongs to an account is linked to it only when one of the
 * mappings its groups match lists the address's domain in `auto_link_domains`, the provider
 * verified the address, and the account is no platform administrator's; otherwise it is
 * refused, and the owner links it from My account after signing in with their password.
 * Without such an account, a new one is made when the mappings give it a client. Every
 * sign-in then sets its memberships in mapped clients from the claim, and opens a session
 * like a password sign-in (method `oidc`).
 */
export class OidcSignInService {
  private readonly unlinkLimiter: RateLimiter;

  constructor(private readonly deps: OidcSignInDeps) {
    this.unlinkLimiter = new RateLimiter(deps.db, UNLINK_WINDOW_SECONDS);
  }

  async signIn(
    claims: OidcClaims,
    settings: Pick<OidcSettings, 'issuer' | 'localLogin'>,
    meta: RequestMeta,
    author: AuditAuthor,
  ): Promise<SessionResponse> {
    const { db, accounts, userClients, audit } = this.deps;
    const sub = claims.sub;
    const issuer = issuerOf(claims, settings);
    const email = text(claims.email).toLowerCase() || null;
    const verified = claims.email_verified === true || claims.email_verified === 'true';

    // The first mapping of a client wins when several of the user's groups map to it.
    const matched = await mappingsFor(db, valuesOf(claims[this.deps.groupsClaim]));
    const wanted = new Map<number, number>();
    for (const m of matched) {
      if (!wanted.has(m.rota_clients_id)) wanted.set(m.rota_clients_id, m.profiles_id);
    }
    const mapped = await mappedClientIds(db);

    const identity = await findIdentity(db, issuer, sub);
    let user = identity ? await accounts.withPassword(db, identity.users_id) : undefined;
    /** The client whose mapping let the identity link to an existing account. */
    let autoLinkedBy: number | null = null;
    if (!user && email) {
      // The access identifier too: a new account would take the email as its access.
      const existing = await accounts.byIdentifier(email);
      if (existing) {
        if (await identityOfUser(db, existing.users_id)) {
          throw new OidcFailure('oidc_already_linked', 'the account is linked to another identity');
        }
        const allowing =
          existing.email === email && !existing.is_platform_admin
            ? matched.find((m) => m.auto_link_domains.includes(domainOf(email)))
            : undefined;
        if (allowing && !verified) {
          // An unverified address could be anyone's: never a key to an existing account.
          throw new OidcFailure('oidc_email_unverified', 'email not verified');
        }
        if (!allowing) {
          // Without the password form (OIDC_LOCAL_LOGIN=false) only an administrator can help.
          const code =
            settings.localLogin || existing.is_platform_admin
              ? 'oidc_link_required'
              : 'oidc_link_unavailable';
          throw new OidcFailure(code, 'an unlinked identity with an existing account’s email');
        }
        user = existing;
        autoLinkedBy = allowing.rota_clients_id;
      }
    }
    if (!user && wanted.size === 0) {
      throw new OidcFailure('oidc_no_access', 'unknown user and no mapped client');
    }
    if (!user && !email) throw new OidcFailure('oidc_failed', 'no email claim to create the user');

    const usersId = await db
      .transaction(async (tx) => {
        let id: number;
        if (user) {
          id = user.users_id;
          if (identity?.issuer === '') await claimIdentity(tx, identity.oidc_identities_id, issuer);
          if (autoLinkedBy !== null) {
            await this.recordLink(tx, author, whoOf(user), autoLinkedBy, issuer, sub, 'auto');
          }
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
          const who = { users_id: id, name: values.name, last_name: values.last_name };
          await audit.write(tx, author, {
            action: 'create',
            entity: 'user',
            entity_id: id,
            clientId: firstClient!,
            after: { ...who, email, oidc: true },
            user: who,
          });
          await this.recordLink(tx, author, who, firstClient!, issuer, sub, 'provisioned');
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
      })
      .catch((error: unknown) => {
        // A sign-in of the same identity, or a link, won a race: this attempt may simply retry.
        if (isUniqueViolation(error)) throw new OidcFailure('oidc_failed', 'linked concurrently');
        throw error;
      });

    if ((await userClients.clientsOf(db, usersId)).length === 0) {
      throw new OidcFailure('oidc_no_access', 'the user belongs to no client');
    }
    const account = await accounts.withPassword(db, usersId);
    if (!account) throw new OidcFailure('oidc_failed', 'the account vanished');
    return this.deps.auth.issueSession(account, meta, author, 'oidc');
  }

  /**
   * Linking from My account: the identity the provider just vouched for becomes the account's
   * that started the attempt, provided the session that started it is still the browser's and
   * alive. Refused when the identity is another account's, or the account has another one.
   */
  async link(
    claims: OidcClaims,
    settings: Pick<OidcSettings, 'issuer'>,
    link: NonNullable<OidcAttempt['link']>,
    sessionToken: string | undefined,
    author: AuditAuthor,
  ): Promise<void> {
    const { db, accounts, auth } = this.deps;
    const session = sessionToken ? await auth.sessionOf(sessionToken) : undefined;
    if (
      !session ||
      session.revoked_at ||
      session.expires_at.getTime() <= Date.now() ||
      session.sessions_id !== link.sessions_id ||
      session.user.users_id !== link.users_id
    ) {
      throw new OidcFailure('oidc_link_session', 'the session that started linking is gone');
    }
    const user = session.user;
    const issuer = issuerOf(claims, settings);
    const sub = claims.sub;
    const signedIn: AuditAuthor = {
      ...author,
      user: whoOf(user),
      clientId: user.rota_clients_id_selected,
    };
    try {
      await db.transaction(async (tx) => {
        // One link at a time per account, so two attempts cannot both pass the checks below.
        if (!(await accounts.lock(tx, user.users_id))) {
          throw new OidcFailure('oidc_link_session', 'the account is gone');
        }
        const existing = await findIdentity(tx, issuer, sub);
        if (existing && existing.users_id !== user.users_id) {
          throw new OidcFailure('oidc_identity_taken', 'the identity is another account’s');
        }
        if (existing) {
          // Linked already (twice clicked, or a link made before issuers were recorded).
          if (existing.issuer === '') await claimIdentity(tx, existing.oidc_identities_id, issuer);
          return;
        }
        if (await identityOfUser(tx, user.users_id)) {
          throw new OidcFailure('oidc_already_linked', 'the account has another identity');
        }
        await this.recordLink(
          tx,
          signedIn,
          whoOf(user),
          user.rota_clients_id_selected,
          issuer,
          sub,
          'account',
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new OidcFailure('oidc_identity_taken', 'linked concurrently');
      }
      throw error;
    }
  }

  /** Whether one's own account is linked. */
  async status(actor: Actor): Promise<OidcLinkStatus> {
    const identity = await identityOfUser(this.deps.db, actor.user.users_id);
    return {
      linked: identity !== undefined,
      linked_at: identity ? identity.created_at.toISOString() : null,
    };
  }

  /**
   * Unlinks one's own account. The password is asked, so the account keeps a way in without its
   * provider (an account made at its first sign-in has a password nobody knows: its owner sets
   * one through password recovery first); and where the password form is off for them, never.
   */
  async unlink(
    actor: Actor,
    password: string,
    settings: Pick<OidcSettings, 'localLogin'>,
    author: AuditAuthor,
  ): Promise<void> {
    const { db, accounts, audit } = this.deps;
    const usersId = actor.user.users_id;
    const identity = await identityOfUser(db, usersId);
    if (!identity) throw notFound();
    const user = await accounts.withPassword(db, usersId);
    if (!user) throw new AppError('unauthorized');
    if (!settings.localLogin && !user.is_platform_admin) {
      throw new AppError('conflict', [
        { field: 'password', message: 'oidc_unlink_local_login_off' },
      ]);
    }
    const key = `oidc-unlink:user-${usersId}`;
    if ((await this.unlinkLimiter.hit(key)) > UNLINK_FAILURES_PER_WINDOW) {
      throw new AppError('too_many_requests', undefined, UNLINK_WINDOW_SECONDS);
    }
    if (!(await verifyPassword(password, user.password_hash))) {
      throw invalidField('password', 'current_password_wrong');
    }
    await this.unlinkLimiter.release(key);
    await db.transaction(async (tx) => {
      await deleteIdentity(tx, identity.oidc_identities_id);
      await audit.write(tx, author, {
        action: 'delete',
        entity: 'oidc_identity',
        entity_id: identity.oidc_identities_id,
        clientId: user.rota_clients_id_selected,
        before: {
          users_id: usersId,
          issuer: identity.issuer,
          subject: identity.subject,
        },
      });
    });
  }

  /** Links and audits: `via` says who decided (the owner, a mapping's domains, provisioning). */
  private async recordLink(
    tx: Db,
    author: AuditAuthor,
    who: Who,
    clientId: number | null,
    issuer: string,
    subject: string,
    via: 'account' | 'auto' | 'provisioned',
  ) {
    const id = await insertIdentity(tx, { users_id: who.users_id, issuer, subject });
    await this.deps.audit.write(tx, author, {
      action: 'create',
      entity: 'oidc_identity',
      entity_id: id,
      clientId,
      after: { users_id: who.users_id, issuer, subject, via },
      user: who,
    });
  }
}
