import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './constants.js';
import { msg } from './messages.js';

/** Database keys are positive integers (`users_id`, `rota_clients_id`, …). */
export const idSchema = z.coerce
  .number({ error: msg('invalid_value') })
  .int(msg('invalid_value'))
  .positive(msg('invalid_value'))
  .max(2147483647, msg('invalid_value'));

export const idBodySchema = z.object({ id: idSchema });
export type IdBody = z.infer<typeof idBodySchema>;

export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** DESIGN §4 error answer; `code` is stable, `message` is in the caller's language. */
export const errorResponseSchema = z.object({
  code: z.string(),
  message: z.string(),
  errors: z.array(fieldErrorSchema).optional(),
  request_id: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const sortOrderSchema = z.enum(['asc', 'desc']);

/** DESIGN §4 `index` body; each resource extends it with its own filters and sortable columns. */
export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  search: z.string().trim().max(200, msg('too_long')).optional(),
  sort: z.string().max(64).optional(),
  order: sortOrderSchema.default('asc'),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export const listMetaSchema = z.object({
  total: z.number().int(),
  current_page: z.number().int(),
  per_page: z.number().int(),
});
export type ListMeta = z.infer<typeof listMetaSchema>;

export function listResponseSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: listMetaSchema });
}
export type ListResponse<T> = { data: T[]; meta: ListMeta };

export function dataResponseSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: item });
}

export const healthResponseSchema = z.object({ status: z.literal('ok') });
