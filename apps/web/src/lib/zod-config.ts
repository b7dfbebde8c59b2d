import { config } from 'zod';

/**
 * zod compiles a fast path for object schemas with `new Function`, after probing whether eval is
 * allowed with `Function('')`. The console's CSP (`script-src 'self'`) forbids eval, so the probe
 * itself raised a `securitypolicyviolation` on the first form validated. Jitless: zod never
 * probes and never compiles. Imported first by main.tsx, before any schema is used.
 */
config({ jitless: true });
