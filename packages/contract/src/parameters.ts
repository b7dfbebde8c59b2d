import { z } from 'zod';
import { idSchema, listQuerySchema, optionalTextSchema, requiredTextSchema } from './common.js';
import { msg } from './messages.js';

/** A named value, or a secret password, a robot reads at run time. Passwords never leave the server. */
export const parameterSchema = z.object({
  rota_parameters_id: z.number().int(),
  name: z.string(),
  value: z.string().nullable(),
  has_password: z.boolean(),
  description: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Parameter = z.infer<typeof parameterSchema>;

// Blank matches too: "Required name" alone speaks for it. The robot reads a parameter as the
// environment variable ROTA_PARAM_<NAME>, and a shell cannot name one with "." or "-" (a robot
// started from one would silently miss it): letters, digits and "_", as a variable's name.
const name = requiredTextSchema(120, 'required_name').regex(
  /^(?:[A-Za-z][A-Za-z0-9_]*)?$/,
  msg('invalid_parameter_name'),
);
const secretOrValue = z.string().max(10000, msg('too_long'));

/** Which of value and password were sent; blank counts as absent (exactly one is wanted). */
export const parameterValueOrPassword = (v: {
  value?: string | null;
  password?: string | null;
}) => {
  const hasValue = v.value !== undefined && v.value !== null && v.value !== '';
  const hasPassword = v.password !== undefined && v.password !== null && v.password !== '';
  return { hasValue, hasPassword };
};

export const parameterCreateSchema = z
  .object({
    name,
    value: secretOrValue.nullish(),
    password: secretOrValue.nullish(),
    description: optionalTextSchema(2000),
  })
  .superRefine((v, ctx) => {
    const { hasValue, hasPassword } = parameterValueOrPassword(v);
    // Neither is a missing value; "not both" is only said when both were given.
    if (hasValue === hasPassword) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: msg(hasValue ? 'parameter_value_xor_password' : 'required_value_or_password'),
      });
    }
  });
export type ParameterCreate = z.infer<typeof parameterCreateSchema>;

/** Sending `value` replaces a password; sending `password` replaces a value; neither keeps what is there. */
export const parameterUpdateSchema = z
  .object({
    id: idSchema,
    name: name.optional(),
    value: secretOrValue.nullish(),
    password: secretOrValue.nullish(),
    description: optionalTextSchema(2000).optional(),
  })
  .superRefine((v, ctx) => {
    const { hasValue, hasPassword } = parameterValueOrPassword(v);
    if (hasValue && hasPassword) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: msg('parameter_value_xor_password'),
      });
    }
  });
export type ParameterUpdate = z.infer<typeof parameterUpdateSchema>;

export const parameterListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['name', 'created_at', 'updated_at']).default('name'),
});
export type ParameterListQuery = z.infer<typeof parameterListQuerySchema>;
