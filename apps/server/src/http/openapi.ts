import type { FastifyDynamicSwaggerOptions, SwaggerTransform } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { PRODUCT_NAME, VERSION_LABEL } from '@rota/contract';
import { bearerSecurity } from './responses.js';

/**
 * The served OpenAPI document (/api/docs/json): what the routes declare, plus what a client
 * generator and `redocly lint` need and no route should have to repeat — an operationId on every
 * operation, `security: []` on public routes, and a `servers` entry.
 */

/**
 * Resources whose URL words, pluralised (`rota/robot/version` → `robotVersions`), would not name
 * them: the URL says `node` and `env` where the console says agents and environments, and some
 * are not collections.
 */
const RESOURCES: Record<string, string> = {
  'user/auth': 'auth',
  'rota/node': 'agents',
  'rota/env': 'environments',
  'rota/activity': 'activity',
  'rota/dashboard': 'dashboard',
  'rota/audit': 'audit',
  'teams/robots': 'teamRobots',
  'teams/users': 'teamUsers',
  // The agent protocol and the robot API: the callers are an agent and a running robot.
  'rota/agent': 'agentProtocol',
  'rota/run': 'runApi',
};

/** Operations whose last URL words do not say what they do (or would collide). */
const OPERATIONS: Record<string, string> = {
  'GET /api/health': 'healthCheck',
  'POST /api/user/api/auth/v1/session': 'authSignIn',
  'POST /api/user/api/auth/v1/logout': 'authSignOut',
  'POST /api/user/api/v1/name': 'usersListNames',
  'PUT /api/user/api/v1/client_select': 'usersSelectClient',
  'POST /api/user/api/v1/avatar': 'usersUploadAvatar',
  'GET /api/user/api/v1/avatar/:file': 'usersGetAvatar',
  'POST /api/rota/dashboard/api/v1/index': 'dashboardGet',
  'GET /api/rota/agent/api/v1/package/:sha256': 'agentProtocolDownloadPackage',
  'POST /api/rota/run/api/v1/task/next': 'runApiTasksNext',
  'POST /api/rota/run/api/v1/task/finish': 'runApiTasksFinish',
  'POST /api/rota/run/api/v1/environment/index': 'runApiEnvironmentsList',
  'POST /api/rota/run/api/v1/parameter/index': 'runApiParametersList',
};

const VERBS: Record<string, string> = { index: 'list', show: 'get' };

/** Routes that write their answer themselves (reply.hijack), so declare no 200 to serialize. */
const STREAMS: Record<string, { description: string; mediaType: string }> = {
  'GET /api/rota/events/api/v1/stream': {
    description: 'The stream: `event:` and `data:` lines until the client closes it',
    mediaType: 'text/event-stream',
  },
};

const words = (text: string) => text.split(/[/_-]+/).filter((w) => w && !w.startsWith(':'));
const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const camel = (parts: string[]) =>
  parts.map((w, i) => (i === 0 ? w.toLowerCase() : capitalize(w.toLowerCase()))).join('');

/**
 * `POST /api/rota/robot/api/v1/index` → `robotsList`: the resource (the words before `/v1`,
 * without `rota` and `api`, the last pluralised) then the action (the words after it).
 */
export function operationIdOf(method: string, url: string): string | undefined {
  const key = `${method} ${url}`;
  if (OPERATIONS[key]) return OPERATIONS[key];
  const match = /^\/api\/(.+?)\/v\d+\/(.+)$/.exec(url);
  if (!match) return undefined;
  const base = match[1]!
    .split('/')
    .filter((w) => w !== 'api')
    .join('/');
  const baseWords = words(base).filter((w) => w !== 'rota');
  const last = baseWords.at(-1)!;
  const resource =
    RESOURCES[base] ?? camel([...baseWords.slice(0, -1), last.endsWith('s') ? last : `${last}s`]);
  const action = words(match[2]!).map((w) => VERBS[w] ?? w);
  return resource + capitalize(camel(action));
}

function methodsOf(route: RouteOptions): string[] {
  return typeof route.method === 'string' ? [route.method] : route.method;
}

const transform: SwaggerTransform = (input) => {
  const transformed = jsonSchemaTransform(input);
  const { url } = transformed;
  const schema = transformed.schema ?? {};
  const { route } = input;
  if (schema.hide) return { schema, url };
  const method = methodsOf(route).filter((m) => m !== 'HEAD')[0] ?? 'GET';
  const operationId = schema.operationId ?? operationIdOf(method, url);
  // A route the auth hook lets through on its own says so in its config; one that checks a
  // token of its own (agent, run) declares that token as its security.
  const security = schema.security ?? (route.config?.public ? [] : bearerSecurity);
  const stream = STREAMS[`${method} ${url}`];
  const response = stream
    ? {
        ...(schema.response as object),
        200: {
          description: stream.description,
          content: { [stream.mediaType]: { schema: { type: 'string' } } },
        },
      }
    : schema.response;
  return { schema: { ...schema, operationId, security, response }, url };
};

/**
 * OpenAPI 3.0.3 ignores `nullable` without `type` (such a schema already takes null), and
 * generators disagree on what it means: `z.unknown().nullable()` becomes one.
 */
function dropTypelessNullable(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) dropTypelessNullable(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const object = node as Record<string, unknown>;
  if (typeof object.nullable === 'boolean' && !('type' in object)) delete object.nullable;
  for (const value of Object.values(object)) dropTypelessNullable(value);
}

type OpenApiObject = {
  paths?: Record<string, Record<string, { responses?: Record<string, OpenApiResponse> }>>;
  components?: { schemas?: Record<string, unknown> };
};
type OpenApiResponse = { content?: Record<string, { schema?: Record<string, unknown> }> };

const ERROR_BODY = 'ErrorResponse';

/**
 * Every error answer carries the same body (`errorResponses`): one component that each answer
 * references, instead of a copy per answer and operation (a generated client held 700 of them).
 * The body is told by being the most common one among the 4xx answers; the answer keeps its own
 * description.
 */
function shareErrorBody(document: OpenApiObject): void {
  const bodies = Object.values(document.paths ?? {})
    .flatMap((path) => Object.values(path))
    .flatMap((operation) => Object.entries(operation.responses ?? {}))
    .filter(([code]) => /^4\d\d$/.test(code))
    .map(([, response]) => response.content?.['application/json'])
    .filter((media) => media?.schema !== undefined) as { schema: Record<string, unknown> }[];
  const keyOf = ({ description: _description, ...body }: Record<string, unknown>) =>
    JSON.stringify(body);
  const counts = new Map<string, number>();
  for (const media of bodies) {
    const key = keyOf(media.schema);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const shared = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!shared) return;
  for (const media of bodies) {
    if (keyOf(media.schema) === shared)
      media.schema = { $ref: `#/components/schemas/${ERROR_BODY}` };
  }
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, [ERROR_BODY]: JSON.parse(shared) },
  };
}

export const swaggerOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    info: {
      title: `${PRODUCT_NAME} Control Room API`,
      version: VERSION_LABEL,
      description:
        'JSON over HTTP. Send `Authorization: Bearer <token>` from `POST /api/user/api/auth/v1/session`.',
      license: { name: 'MIT', url: 'https://spdx.org/licenses/MIT.html' },
    },
    // Relative: the document is right wherever the server is reached (LAN address, proxy).
    servers: [{ url: '/', description: 'The server that serves this document' }],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer' },
        agentToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The agent token (agent protocol)',
        },
        runToken: {
          type: 'http',
          scheme: 'bearer',
          description: "A run's ROTA_EXECUTION_TOKEN (robot API)",
        },
        triggerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A run trigger’s token, `rota_trg_…`',
        },
      },
    },
  },
  transform,
  transformObject: (document) => {
    const object = 'openapiObject' in document ? document.openapiObject : document.swaggerObject;
    dropTypelessNullable(object);
    shareErrorBody(object as OpenApiObject);
    return object;
  },
};
