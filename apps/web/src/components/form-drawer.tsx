import { useState, type ReactNode } from 'react';
import { Alert, Button, Drawer, Group, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  useForm,
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { applyFieldErrors } from '../lib/form-errors';
import { errorText, isApiError } from '../lib/http';
import { localizeMessage } from '../lib/i18n';

export type FormDrawerForm<TInput extends FieldValues, TOutput> = UseFormReturn<
  TInput,
  unknown,
  TOutput
>;

/** How the form validates: the contract's zod schema, or a resolver built on it. */
type Validation<TInput extends FieldValues, TOutput> =
  | {
      /** The contract's schema, the same the server validates with (robotCreateSchema…). */
      schema: z.ZodType<TOutput, TInput>;
      resolver?: never;
    }
  | {
      /**
       * For forms whose inputs are not the schema's shape (the task form turns typed inputs into
       * `data`): a resolver that converts, then runs the contract's schema (zodResolver).
       */
      resolver: Resolver<TInput, unknown, TOutput>;
      schema?: never;
    };

export type FormDrawerProps<TInput extends FieldValues, TOutput> = Validation<TInput, TOutput> & {
  opened: boolean;
  onClose: () => void;
  /** "Novo robô", "Editar robô"… also the drawer's accessible name. */
  title: string;
  /** The form's starting values; the drawer starts from them again each time it opens. */
  defaultValues: DefaultValues<TInput>;
  /**
   * Sends the valid values. Resolve to close the drawer; reject (the API client's ApiError) to
   * keep it open with the server's field errors under the fields.
   */
  onSubmit: (values: TOutput) => Promise<unknown>;
  /**
   * Fields that may receive server errors; by default the keys of `defaultValues`. Forms with
   * dynamic fields pass a test instead (`(name) => name.startsWith('data.')`).
   */
  fields?: readonly string[] | ((name: string) => boolean);
  /** "Salvar" by default. */
  submitLabel?: string;
  /** The inputs, given the react-hook-form instance (register, control, formState.errors). */
  children: (form: FormDrawerForm<TInput, TOutput>) => ReactNode;
};

type FormBodyProps<TInput extends FieldValues, TOutput> = Omit<
  FormDrawerProps<TInput, TOutput>,
  'opened' | 'title'
>;

function FormBody<TInput extends FieldValues, TOutput>({
  onClose,
  schema,
  resolver,
  defaultValues,
  onSubmit,
  fields,
  submitLabel,
  children,
}: FormBodyProps<TInput, TOutput>) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TInput, unknown, TOutput>({
    // One of the two is always given (Validation); destructuring loses that narrowing.
    resolver: resolver ?? zodResolver(schema as z.ZodType<TOutput, TInput>),
    defaultValues,
  });
  const { isSubmitting } = form.formState;

  function serverFields(error: unknown): FieldPath<TInput>[] {
    if (typeof fields === 'function') {
      return isApiError(error)
        ? (error.errors.map((e) => e.field).filter(fields) as FieldPath<TInput>[])
        : [];
    }
    return (fields ?? Object.keys(defaultValues ?? {})) as FieldPath<TInput>[];
  }

  async function submit(values: TOutput) {
    setFailure(null);
    try {
      await onSubmit(values);
      onClose();
    } catch (error) {
      // 400: the fields' own messages; 409 (a duplicate name) names its field too.
      if (applyFieldErrors(error, serverFields(error), form.setError, [400, 409])) return;
      // A 400 about nothing on the form is not shown by the API client: say it here. Other
      // failures already raised the client's popup.
      if (isApiError(error) && error.status === 400) {
        const details = error.errors.map((e) => `${e.field}: ${localizeMessage(e.message)}`);
        setFailure([errorText(error), ...details].join('\n'));
      }
    }
  }

  return (
    <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)}>
      <Stack gap="md">
        {children(form)}
        {failure ? (
          <Alert
            color="red"
            variant="light"
            title={t('common.form.errorTitle')}
            style={{ whiteSpace: 'pre-line' }}
          >
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onClose} disabled={isSubmitting}>
            {t('common.actions.cancel')}
          </Button>
          <Button type="submit" loading={isSubmitting} disabled={isSubmitting}>
            {submitLabel ?? t('common.actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Create and edit forms: a drawer on the right (full width on phones), validated with
 * the contract's zod schema, server field errors under each field, submit disabled while saving,
 * closed on success. Lists refresh through the mutation's query invalidation, not here.
 */
export function FormDrawer<TInput extends FieldValues, TOutput>({
  opened,
  title,
  ...body
}: FormDrawerProps<TInput, TOutput>) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Drawer
      opened={opened}
      onClose={body.onClose}
      title={title}
      position="right"
      size={phone ? '100%' : 'md'}
      padding="lg"
      closeButtonProps={{ 'aria-label': t('common.actions.close') }}
    >
      {/* Mounted per opening, so each one starts from defaultValues with no stale errors. */}
      {opened ? <FormBody {...body} /> : null}
    </Drawer>
  );
}
