import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './constants.js';
import { isIsoDate } from './iso-date.js';
import { msg, msgWith, type MessageKey } from './messages.js';

/** Largest PostgreSQL `integer`: every whole number the contract takes fits a column. */
export const PG_INT_MAX = 2147483647;

/** NUL: PostgreSQL stores it in neither `text` nor `jsonb`. */
const NUL = '\u0000';

/** Text PostgreSQL can store: no NUL. */
export const isStorable = (value: string) => !value.includes(NUL);

/** Robot output is data, not input to refuse: what PostgreSQL cannot store becomes U+FFFD. */
export const toStorable = (value: string) => value.replaceAll(NUL, '\uFFFD');

/** A place in a walked value: its key and its parent's place, the path built only when reported. */
type Place = { item: unknown; key: string | number | null; parent: Place | null; bad?: true };

function pathOf(place: Place, root: (string | number)[]): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let at: Place | null = place; at && at.key !== null; at = at.parent) keys.push(at.key);
  return [...root, ...keys.reverse()];
}

/**
 * Where, in a parsed body, a string (or an object key) holds what PostgreSQL cannot store. A walk
 * with its own stack, not recursion, and parent links, not a path copied a level: however deep a
 * value nests, it neither overflows the call stack nor grows quadratically.
 */
export function unstorablePaths(
  value: unknown,
  path: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  const stack: Place[] = [{ item: value, key: null, parent: null }];
  while (stack.length > 0) {
    const place = stack.pop()!;
    const { item } = place;
    if (place.bad) {
      out.push(pathOf(place, path));
    } else if (typeof item === 'string') {
      if (!isStorable(item)) out.push(pathOf(place, path));
    } else if (Array.isArray(item)) {
      // Pushed last to first, so that the paths come out in the order of the document.
      for (let i = item.length - 1; i >= 0; i--) {
        stack.push({ item: item[i], key: i, parent: place });
      }
    } else if (item && typeof item === 'object' && !(item instanceof Date)) {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        stack.push(
          isStorable(key)
            ? { item: child, key, parent: place }
            : { item: null, key: toStorable(key), parent: place, bad: true },
        );
      }
    }
  }
  return out;
}

/**
 * The schema, refusing every string anywhere in its parsed value (nested records and free
 * JSON included) that PostgreSQL cannot store, each with its field and `invalid_character`.
 * The server wraps every request schema with it; fields that take robot output replace
 * such characters in a transform first (`robotOutputSchema`), so they pass.
 */
export function refuseUnstorable<T extends z.ZodType>(schema: T): T {
  // A route declared with plain JSON schema (none today) is left as it is.
  if (!(schema instanceof z.ZodType)) return schema;
  return schema.superRefine((value, ctx) => {
    for (const path of unstorablePaths(value)) {
      ctx.addIssue({ code: 'custom', path, message: msg('invalid_character'), input: value });
    }
  }) as T;
}

/** Robot output (log lines, an agent's finish message): stored with NUL replaced, never refused. */
export const robotOutputSchema = (max: number) => z.string().max(max).transform(toStorable);

/** Free text in a form: refused with `invalid_character` when PostgreSQL cannot store it. */
export const storableString = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(isStorable, msg('invalid_character'));

/** Database keys are positive integers (`users_id`, `rota_clients_id`, …). */
export const idSchema = z.coerce
  .number({ error: msg('invalid_value') })
  .int(msg('invalid_value'))
  .positive(msg('invalid_value'))
  .max(PG_INT_MAX, msg('invalid_value'));

/** A key the caller must choose (a robot, a VM): its own "required" message when missing. */
export const requiredIdSchema = (required: MessageKey) =>
  z
    .number({ error: msg(required) })
    .int(msg('invalid_value'))
    .positive(msg('invalid_value'))
    .max(PG_INT_MAX, msg('invalid_value'));

export const idBodySchema = z.object({ id: idSchema });
export type IdBody = z.infer<typeof idBodySchema>;

export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** The error answer; `code` is stable, `message` is in the caller's language. */
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

/** The `index` body every list sends; each resource extends it with its own filters and sortable columns. */
export const listQuerySchema = z.object({
  // Past this the offset leaves PostgreSQL's bigint; no list is that long anyway.
  page: z.coerce.number().int().min(1).max(PG_INT_MAX).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  search: storableString().trim().max(200, msg('too_long')).optional(),
  sort: z.string().max(64).optional(),
  order: sortOrderSchema.default('asc'),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** A searched list counts its matches up to this many: past it the total says "more than". */
export const SEARCH_COUNT_LIMIT = 10_000;

export const listMetaSchema = z.object({
  total: z.number().int(),
  /** More rows match than `total` (SEARCH_COUNT_LIMIT): the search was counted this far only. */
  total_capped: z.boolean().optional(),
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
  storableString()
    .trim()
    .max(max, msg('too_long'))
    .nullish()
    .transform((v) => (v ? v : null));

export const requiredTextSchema = (max: number, required: MessageKey) =>
  storableString({ error: msg(required) })
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
    // The error says the range ("Between 1 and 1440"), not only that it is out of it.
    .min(min, msgWith('out_of_range_between', { min, max }))
    .max(max, msgWith('out_of_range_between', { min, max }));

/** `ids` for the bulk actions (retry, delete many). */
export const idsBodySchema = z.object({
  ids: z
    .array(idSchema, { error: msg('invalid_value') })
    .min(1, msg('invalid_value'))
    .max(1000, msg('too_long')),
});
export type IdsBody = z.infer<typeof idsBodySchema>;

/** The create answer: `{message, data}`. */
export function createdResponseSchema<T extends z.ZodType>(item: T) {
  return z.object({ message: z.string(), data: item });
}

/** A calendar day, `YYYY-MM-DD`. */
export const isoDateSchema = z
  .string({ error: msg('required_date') })
  .min(1, { error: msg('required_date'), abort: true })
  // One check, so a malformed day gets one message, not one per rule it breaks.
  .refine(isIsoDate, msg('invalid_date'));

/**
 * An instant with its offset, as the agent sends them; PostgreSQL refuses year 0, which an
 * offset can still reach from year 1 (`0001-01-01T00:00:00+01:00`), so the first year is out.
 */
export const timestampSchema = z.iso
  .datetime({ offset: true, error: msg('invalid_date') })
  .refine((v) => Number(v.slice(0, 4)) > 1, msg('invalid_date'));

/** Optional `startDate`/`endDate` filters (inclusive days, end not before start). */
export const dateRangeFilterShape = {
  startDate: isoDateSchema.optional(),
  endDate: isoDateSchema.optional(),
};

export const booleanFilterSchema = z.boolean({ error: msg('invalid_value') }).optional();
