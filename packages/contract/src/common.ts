import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './constants.js';
import { msg, type MessageKey } from './messages.js';

/** Database keys are positive integers (`users_id`, `rota_clients_id`, …). */
export const idSchema = z.coerce
  .number({ error: msg('invalid_value') })
  .int(msg('invalid_value'))
  .positive(msg('invalid_value'))
  .max(2147483647, msg('invalid_value'));

/** A key the caller must choose (a robot, a VM): its own "required" message when missing. */
export const requiredIdSchema = (required: MessageKey) =>
  z
    .number({ error: msg(required) })
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

/** Free text that may be left out or blank (stored as null). */
export const optionalTextSchema = (max: number) =>
  z
    .string()
    .trim()
    .max(max, msg('too_long'))
    .nullish()
    .transform((v) => (v ? v : null));

export const requiredTextSchema = (max: number, required: MessageKey) =>
  z
    .string({ error: msg(required) })
    .trim()
    .min(1, msg(required))
    .max(max, msg('too_long'));

/** An integer in a range, with the range message for numbers outside it. */
export const boundedIntSchema = (
  min: number,
  max: number,
  required: MessageKey = 'invalid_number',
) =>
  z
    .number({ error: msg(required) })
    .int(msg('invalid_integer'))
    .min(min, msg('out_of_range'))
    .max(max, msg('out_of_range'));

/** `ids` for the bulk actions (retry, delete many). */
export const idsBodySchema = z.object({
  ids: z
    .array(idSchema, { error: msg('invalid_value') })
    .min(1, msg('invalid_value'))
    .max(1000, msg('too_long')),
});
export type IdsBody = z.infer<typeof idsBodySchema>;

/** DESIGN §4 create answer: `{message, data}`. */
export function createdResponseSchema<T extends z.ZodType>(item: T) {
  return z.object({ message: z.string(), data: item });
}

/** A calendar day, `YYYY-MM-DD`. */
export const isoDateSchema = z
  .string({ error: msg('required_date') })
  .min(1, { error: msg('required_date'), abort: true })
  // One check, so a malformed day gets one message, not one per rule it breaks.
  .refine((v) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
    const time = Date.parse(`${v}T00:00:00Z`);
    // 2024-02-30 parses (as March 1st): only a day that prints back the same is real.
    return !Number.isNaN(time) && new Date(time).toISOString().startsWith(v);
  }, msg('invalid_date'));

/** Optional `startDate`/`endDate` filters (DESIGN §4: inclusive days, end not before start). */
export const dateRangeFilterShape = {
  startDate: isoDateSchema.optional(),
  endDate: isoDateSchema.optional(),
};

export const booleanFilterSchema = z.boolean({ error: msg('invalid_value') }).optional();
