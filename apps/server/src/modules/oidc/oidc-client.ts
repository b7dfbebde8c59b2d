import type * as OpenIdClient from 'openid-client';
import type { Config } from '../../config/env.js';

/** The OpenID Connect settings of the server, from the environment. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  scopes: string;
  label: string;
  localLogin: boolean;
  groupsClaim: string;
  /** `${PUBLIC_URL}/api/user/api/auth/v1/oidc/callback`, registered at the provider. */
  redirectUri: string;
}

export const OIDC_CALLBACK_PATH = '/api/user/api/auth/v1/oidc/callback';

/** Null when OIDC_ISSUER is unset (loadConfig already refused an issuer without a client id). */
export function oidcSettingsOf(
  config: Pick<
    Config,
    | 'publicUrl'
    | 'OIDC_ISSUER'
    | 'OIDC_CLIENT_ID'
    | 'OIDC_CLIENT_SECRET'
    | 'OIDC_SCOPES'
    | 'OIDC_LABEL'
    | 'OIDC_LOCAL_LOGIN'
    | 'OIDC_GROUPS_CLAIM'
  >,
): OidcSettings | null {
  if (!config.OIDC_ISSUER || !config.OIDC_CLIENT_ID) return null;
  return {
    issuer: config.OIDC_ISSUER,
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    scopes: config.OIDC_SCOPES,
    label: config.OIDC_LABEL,
    localLogin: config.OIDC_LOCAL_LOGIN,
    groupsClaim: config.OIDC_GROUPS_CLAIM,
    redirectUri: `${config.publicUrl}${OIDC_CALLBACK_PATH}`,
  };
}

/** Discovery failed: the server does not start (one line naming the variable). */
export class OidcDiscoveryError extends Error {
  constructor(url: string, reason: string) {
    super(`OIDC_ISSUER: discovery at ${url} failed: ${reason}`);
    this.name = 'OidcDiscoveryError';
  }
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** What one sign-in attempt must find again at the callback (kept in the sealed cookie). */
export interface OidcAttempt {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
  /**
   * Linking from My account: the account and the session that started it. The callback links
   * the identity to this account, while that session is still the browser's, instead of signing in.
   */
  link?: { users_id: number; sessions_id: number };
}

/** The ID token's claims that sign-in reads. */
export type OidcClaims = Record<string, unknown> & { sub: string };

/** The discovered provider, kept for the app's life. */
export class OidcClient {
  constructor(
    readonly settings: OidcSettings,
    private readonly configuration: OpenIdClient.Configuration,
    /** openid-client, loaded by `discoverOidc`: a server without SSO never holds it. */
    private readonly oidc: typeof OpenIdClient,
  ) {}

  /** A new attempt (state, nonce, PKCE verifier) and the provider's address to send the browser to. */
  async start(returnTo: string): Promise<{ url: string; attempt: OidcAttempt }> {
    const verifier = this.oidc.randomPKCECodeVerifier();
    const attempt: OidcAttempt = {
      state: this.oidc.randomState(),
      nonce: this.oidc.randomNonce(),
      verifier,
      returnTo,
    };
    const url = this.oidc.buildAuthorizationUrl(this.configuration, {
      redirect_uri: this.settings.redirectUri,
      scope: this.settings.scopes,
      code_challenge: await this.oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: attempt.state,
      nonce: attempt.nonce,
    });
    return { url: url.href, attempt };
  }

  /**
   * Redeems the code of the callback's query and verifies the ID token (signature against the
   * issuer's keys, audience, expiry, nonce, and the state and PKCE checks): openid-client does
   * every check. The URL is rebuilt on the registered redirect URI, whatever host a proxy used.
   */
  async finish(query: string, attempt: OidcAttempt): Promise<OidcClaims> {
    const current = new URL(this.settings.redirectUri);
    current.search = query;
    const tokens = await this.oidc.authorizationCodeGrant(this.configuration, current, {
      pkceCodeVerifier: attempt.verifier,
      expectedState: attempt.state,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('no ID token');
    return claims as OidcClaims;
  }
}

/**
 * Discovery at start. openid-client refuses plain-http providers; a loopback issuer is allowed
 * over http because nothing leaves the machine there (the tests' provider runs so), while a
 * provider on the network must be https: its tokens would otherwise travel readable.
 */
export async function discoverOidc(settings: OidcSettings): Promise<OidcClient> {
  const issuer = new URL(settings.issuer);
  const insecureLoopback = issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.hostname);
  const oidc = await import('openid-client');
  try {
    const configuration = await oidc.discovery(
      issuer,
      settings.clientId,
      settings.clientSecret,
      // No secret: a public client, PKCE alone protects the code.
      settings.clientSecret ? undefined : oidc.None(),
      {
        timeout: 10,
        ...(insecureLoopback ? { execute: [oidc.allowInsecureRequests] } : {}),
      },
    );
    return new OidcClient(settings, configuration, oidc);
  } catch (error) {
    throw new OidcDiscoveryError(issuer.href, reasonOf(error));
  }
}

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`.replace(/\s+/g, ' ');
}
