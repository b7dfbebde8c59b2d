import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationIdOf } from '../src/http/openapi.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The served document passes `redocly lint` with the recommended rules, and every
 * operation has an operationId a generated client can use as a method name.
 */

/** Warnings kept on purpose, by rule and place; anything else fails. */
const KEPT_WARNINGS = [
  // The health check takes no input and needs no session: its only failure is 503 (the
  // database does not answer). A made-up 4xx would mislead load balancers and readers.
  'operation-4xx-response #/paths/~1api~1health/get/responses',
  // Whether single sign-on is on: public, no input, always answered.
  'operation-4xx-response #/paths/~1api~1user~1api~1auth~1v1~1oidc~1config/get/responses',
  // Browser hops of single sign-on: their answer is a redirect (302), never a 2xx body.
  'operation-2xx-response #/paths/~1api~1user~1api~1auth~1v1~1oidc~1start/get/responses',
  'operation-2xx-response #/paths/~1api~1user~1api~1auth~1v1~1oidc~1callback/get/responses',
];

type Operation = { operationId?: string; security?: unknown[] };
type Document = { paths: Record<string, Record<string, Operation>> };

let t: TestApp;
let source: string;
let document: Document;

beforeAll(async () => {
  t = await createTestApp();
  const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(response.statusCode).toBe(200);
  source = response.body;
  document = JSON.parse(source) as Document;
});

afterAll(async () => {
  await t?.close();
});

const operations = () =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, ...op })),
  );

const describeProblem = (p: NormalizedProblem) =>
  `${p.ruleId} ${p.location[0]?.pointer ?? ''}`.trim();

describe('the served OpenAPI document', () => {
  it("passes redocly's recommended rules", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map(describeProblem);
    const warnings = problems.filter((p) => p.severity === 'warn').map(describeProblem);
    expect(errors).toEqual([]);
    expect(warnings.sort()).toEqual([...KEPT_WARNINGS].sort());
  });

  it('gives every operation a unique camelCase operationId and a security', () => {
    const all = operations();
    expect(all.length).toBeGreaterThan(100);
    for (const op of all) {
      expect(op.operationId, `${op.method} ${op.path}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(op.security, `${op.method} ${op.path}`).toBeInstanceOf(Array);
    }
    const ids = all.map((op) => op.operationId);
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(repeated).toEqual([]);
  });

  it('names operations after what they do', () => {
    const idOf = (method: string, path: string) => document.paths[path]?.[method]?.operationId;
    expect(idOf('post', '/api/rota/robot/api/v1/index')).toBe('robotsList');
    expect(idOf('post', '/api/rota/robot/api/v1/show')).toBe('robotsGet');
    expect(idOf('put', '/api/rota/robot/api/v1/update')).toBe('robotsUpdate');
    expect(idOf('post', '/api/rota/robot/version/api/v1/create')).toBe('robotVersionsCreate');
    expect(idOf('post', '/api/rota/node/api/v1/rotate_token')).toBe('agentsRotateToken');
    expect(idOf('post', '/api/rota/activity/api/v1/cancel')).toBe('activityCancel');
    expect(idOf('post', '/api/user/api/auth/v1/session')).toBe('authSignIn');
    expect(idOf('get', '/api/user/api/v1/avatar/{file}')).toBe('usersGetAvatar');
    expect(idOf('post', '/api/rota/run/api/v1/task/next')).toBe('runApiTasksNext');
    // A new resource gets its name from its URL without an entry in the tables.
    expect(operationIdOf('POST', '/api/rota/robot/label/api/v1/delete_many')).toBe(
      'robotLabelsDeleteMany',
    );
  });

  it('marks public routes public and keeps the token of the agent protocol and robot API', () => {
    const securityOf = (method: string, path: string) => document.paths[path]?.[method]?.security;
    expect(securityOf('post', '/api/user/api/auth/v1/session')).toEqual([]);
    expect(securityOf('get', '/api/health')).toEqual([]);
    expect(securityOf('post', '/api/rota/robot/api/v1/index')).toEqual([{ bearerAuth: [] }]);
    expect(securityOf('post', '/api/rota/agent/api/v1/claim')).toEqual([{ agentToken: [] }]);
    expect(securityOf('post', '/api/rota/run/api/v1/task/next')).toEqual([{ runToken: [] }]);
  });
});
