import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** An account of the test provider; its key in `accounts` is its `sub` and the login typed. */
export interface OidcAccount {
  email: string;
  email_verified: boolean;
  groups?: string[];
  given_name?: string;
  family_name?: string;
  name?: string;
}

export interface OidcProviderOptions {
  /** 0 (default) takes a free port. */
  port?: number;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /**
   * By `sub`. Read at every sign-in, so a test may change an account (its groups, its email)
   * between two sign-ins.
   */
  accounts: Record<string, OidcAccount>;
}

export interface OidcTestProvider {
  /** `http://127.0.0.1:<port>`: what OIDC_ISSUER is set to. */
  issuer: string;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (the `oidc-provider` package) on loopback, for server tests and the
 * Playwright specs. Its development login form (`/interaction/<uid>`, fields `login` and
 * `password`) signs in the account whose `sub` is typed as the login (any password); consent is
 * granted without asking, so a sign-in is one form. Claims, `groups` included, go in the ID token.
 */
export async function startOidcProvider(options: OidcProviderOptions): Promise<OidcTestProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: {
      // Like Entra ID with a groups claim configured: groups come whatever the scopes.
      openid: ['sub', 'groups'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    // Real providers (Keycloak, Entra ID, Google) put these claims in the ID token too.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['rota-test-oidc-provider-cookie-key'] },
    // Set, so the provider does not print a notice for each default.
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    async findAccount(_ctx: KoaContextWithOIDC, sub: string) {
      const account = options.accounts[sub];
      if (!account) return undefined;
      return {
        accountId: sub,
        async claims() {
          return { sub, ...options.accounts[sub] };
        },
      };
    },
    // Consent is implied: the grant covers what was asked.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { Grant } = ctx.oidc.provider;
      const clientId = ctx.oidc.client!.clientId;
      const existing = ctx.oidc.session!.grantIdFor(clientId);
      if (existing) {
        const found = await Grant.find(existing);
        if (found) return found;
      }
      const grant = new Grant({ clientId, accountId: ctx.oidc.session!.accountId });
      grant.addOIDCScope(String(ctx.oidc.params!.scope ?? 'openid'));
      grant.addOIDCClaims([
        'sub',
        'groups',
        'email',
        'email_verified',
        'name',
        'given_name',
        'family_name',
      ]);
      await grant.save();
      return grant;
    },
  });
  server.on('request', provider.callback());

  return {
    issuer,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
