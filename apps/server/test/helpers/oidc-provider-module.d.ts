/**
 * The little of `oidc-provider` (v9, untyped) the test provider uses; @types/oidc-provider
 * describes v8 only.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }
  interface GrantClass {
    new (properties: { clientId: string; accountId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }
  export interface KoaContextWithOIDC {
    oidc: {
      provider: { Grant: GrantClass };
      client?: { clientId: string };
      session?: { accountId: string; grantIdFor(clientId: string): string | undefined };
      params?: Record<string, unknown>;
    };
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
