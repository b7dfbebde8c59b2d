import { z } from 'zod';

/**
 * The contract's schema, run on the body the form would send: `toBody` turns the form's values
 * (typed from the contract, `z.input<typeof xCreateSchema>`, or a form's own inputs) into the
 * schema's input, adding what is not an input (the edited row's id) and leaving out what is only
 * the form's (a "remove" checkbox). Its input is the form's values and its output the schema's, so
 * zodResolver types the form, what is submitted and the conversion, and a field renamed in the
 * contract fails to compile here. Issues keep the schema's paths, which are the form's fields.
 */
export function formSchema<TValues, S extends z.ZodType>(
  schema: S,
  toBody: (values: TValues) => z.input<S>,
) {
  return z.preprocess(toBody, schema);
}

/**
 * A form's values: the schema's input, with some fields as their inputs hold them (ids a select
 * gives as numbers where the schema takes anything it can read, a list that is always there, ''
 * for an emptied number input). Only the schema's own fields may be narrowed, so renaming one in
 * the contract fails to compile; `formSchema`'s `toBody` checks the narrowed values still fit.
 */
export type FormValues<
  S extends z.ZodType,
  Narrowed extends { [K in keyof Narrowed]: K extends keyof z.input<S> ? unknown : never } = object,
> = Omit<z.input<S>, keyof Narrowed> & Narrowed;
