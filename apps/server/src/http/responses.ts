import { errorResponseSchema } from '@rota/contract';

/** The error answers a route may give, for the OpenAPI document. */
export const errorResponses = {
  400: errorResponseSchema.describe('Invalid input; `errors` lists each field'),
  401: errorResponseSchema.describe('Not signed in, or the session expired'),
  403: errorResponseSchema.describe('A permission is missing'),
  404: errorResponseSchema.describe('Absent, or in another client'),
  409: errorResponseSchema.describe('Conflicts with an existing record; `errors` says which field'),
  429: errorResponseSchema.describe('Too many attempts'),
} as const;

export const bearerSecurity = [{ bearerAuth: [] }];
