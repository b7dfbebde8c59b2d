import { z } from 'zod';
import { idSchema, listQuerySchema } from './common.js';
import {
  EXECUTION_STATUSES,
  STATUS_ITEM_CATEGORIES,
  type StatusItemCategory,
} from './execution-statuses.js';
import { msg } from './messages.js';

/** `/rota/status/item/api/v1/`: how one execution status reads on the dashboard and in activity. */
export const statusItemSchema = z.object({
  rota_status_items_id: z.number().int(),
  status: z.enum(EXECUTION_STATUSES),
  category: z.enum(STATUS_ITEM_CATEGORIES as [StatusItemCategory, ...StatusItemCategory[]]),
  /** Null: the console shows the status's own translated name. */
  label: z.string().nullable(),
  color: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type StatusItem = z.infer<typeof statusItemSchema>;

export const colorSchema = z
  .string({ error: msg('invalid_color') })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, msg('invalid_color'))
  .transform((v) => v.toLowerCase());

/** Items exist per status (seeded); they are edited, not created or deleted. */
export const statusItemUpdateSchema = z.object({
  id: idSchema,
  category: z
    .enum(STATUS_ITEM_CATEGORIES as [StatusItemCategory, ...StatusItemCategory[]], {
      error: msg('invalid_value'),
    })
    .optional(),
  /** Blank or null: back to the status's own name; left out: kept. */
  label: z
    .string({ error: msg('invalid_value') })
    .trim()
    .max(60, msg('too_long'))
    .nullish()
    .transform((v) => (v ? v : null))
    .optional(),
  color: colorSchema.optional(),
});
export type StatusItemUpdate = z.infer<typeof statusItemUpdateSchema>;

export const statusItemListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['status', 'category']).default('status'),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
});
export type StatusItemListQuery = z.infer<typeof statusItemListQuerySchema>;

/**
 * POST /rota/status/item/api/v1/palette: how each status reads (colour, label, category), for
 * any signed-in user of the client (badges and charts of activity and the dashboard).
 */
export const statusPaletteEntrySchema = statusItemSchema.pick({
  status: true,
  category: true,
  label: true,
  color: true,
});
export type StatusPaletteEntry = z.infer<typeof statusPaletteEntrySchema>;
export const statusPaletteResponseSchema = z.object({ data: z.array(statusPaletteEntrySchema) });
