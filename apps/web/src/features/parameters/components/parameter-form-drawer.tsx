import { Input, PasswordInput, SegmentedControl, TextInput, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useWatch, type Resolver, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import {
  parameterCreateSchema,
  parameterUpdateSchema,
  type MessageKey,
  type Parameter,
  type ParameterCreate,
  type ParameterUpdate,
} from '@rota/contract';
import { FormDrawer } from '../../../components/form-drawer';
import { fieldError } from '../../../lib/form-errors';
import { formSchema, type FormValues } from '../../../lib/form-schema';
import { MONOSPACE_INPUT } from '../../../components/monospace-input';
import { useCreateParameter } from '../api/create-parameter';
import { useUpdateParameter } from '../api/update-parameter';
import { useParametersTranslation } from '../i18n';
import { MASK } from './parameter-value';

export type ParameterKind = 'value' | 'password';

/** What the inputs hold: both texts, and which of them is sent. */
export type ParameterFormValues = FormValues<
  typeof parameterCreateSchema,
  { name: string; value: string; password: string; description: string }
> & { kind: ParameterKind };

const FIELDS = ['name', 'value', 'password', 'description'] as const;

/** The body to send: only the chosen text, and an empty "Replace password" is not sent at all. */
export function parameterPayload(values: ParameterFormValues) {
  const base = { name: values.name, description: values.description };
  if (values.kind === 'value') return { ...base, value: values.value };
  return values.password === '' ? base : { ...base, password: values.password };
}

/**
 * The contract's schema run on the body the form would send (`formSchema`). Its value/password
 * issue names `value`; with "Senha" chosen, that input is hidden, so the issue moves under the
 * password input. On update, the schema lets neither through (it keeps what is stored); the form
 * only allows that for a password left as it is, never to leave a parameter with neither.
 */
function parameterResolver<TOutput>(
  schema: z.ZodType<TOutput, ParameterFormValues>,
  current?: Parameter,
): Resolver<ParameterFormValues, unknown, TOutput> {
  const base = zodResolver(schema);
  return async (values, context, options) => {
    const result = await base(values, context, options);
    const errors = { ...result.errors };
    if (values.kind === 'password' && errors.value) {
      errors.password ??= errors.value;
      delete errors.value;
    }
    if (current && !errors.value && !errors.password) {
      if (values.kind === 'value' && values.value === '') {
        errors.value = {
          type: 'validate',
          message: 'parameter_value_xor_password' satisfies MessageKey,
        };
      } else if (values.kind === 'password' && values.password === '' && !current.has_password) {
        errors.password = { type: 'validate', message: 'required_password' satisfies MessageKey };
      }
    }
    // No error of its own: the schema's answer, its parsed body when it found none either.
    if (Object.keys(errors).length === 0) return result;
    return { values: {}, errors };
  };
}

function ParameterFormInputs<TOutput>({
  form,
  current,
}: {
  form: UseFormReturn<ParameterFormValues, unknown, TOutput>;
  current?: Parameter;
}) {
  const t = useParametersTranslation();
  const { errors } = form.formState;
  const kind = useWatch({ control: form.control, name: 'kind' });
  const storedPassword = !!current?.has_password;
  const storedValue = !!current && !current.has_password;

  return (
    <>
      <TextInput
        label={t('form.name')}
        description={t('form.nameHint')}
        withAsterisk
        data-autofocus
        styles={MONOSPACE_INPUT}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        error={fieldError(errors.name)}
        {...form.register('name')}
      />
      <Controller
        control={form.control}
        name="kind"
        render={({ field }) => (
          <Input.Wrapper label={t('form.kind')} labelElement="div">
            <SegmentedControl
              aria-label={t('form.kind')}
              fullWidth
              mt={4}
              data={[
                { value: 'value', label: t('form.kindValue') },
                { value: 'password', label: t('form.kindPassword') },
              ]}
              value={field.value}
              onChange={(next) => {
                field.onChange(next);
                form.clearErrors(['value', 'password']);
              }}
              name={field.name}
            />
          </Input.Wrapper>
        )}
      />
      {kind === 'value' ? (
        <Textarea
          label={t('form.value')}
          description={storedPassword ? t('form.replacesPasswordHint') : undefined}
          withAsterisk
          autosize
          minRows={1}
          maxRows={8}
          spellCheck={false}
          autoComplete="off"
          error={fieldError(errors.value)}
          {...form.register('value')}
        />
      ) : (
        <>
          {storedPassword ? (
            <TextInput
              label={t('form.currentPassword')}
              description={t('form.currentPasswordHint')}
              value={MASK}
              readOnly
              variant="filled"
            />
          ) : null}
          <PasswordInput
            label={storedPassword ? t('form.replacePassword') : t('form.password')}
            description={storedValue ? t('form.replacesValueHint') : t('form.passwordHint')}
            withAsterisk={!storedPassword}
            // Never the user's own sign-in password from the browser's store.
            autoComplete="new-password"
            error={fieldError(errors.password)}
            {...form.register('password')}
          />
        </>
      )}
      <Textarea
        label={t('form.description')}
        autosize
        minRows={2}
        maxRows={6}
        error={fieldError(errors.description)}
        {...form.register('description')}
      />
    </>
  );
}

type ParameterFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The parameter to edit; without it the drawer creates one. */
  parameter?: Parameter | null;
};

/**
 * "Novo parâmetro" / "Editar parâmetro": a value OR a password, chosen with "Valor /
 * Senha". A stored password is never read back: editing shows it masked and offers to replace it.
 */
export function ParameterFormDrawer({ opened, onClose, parameter }: ParameterFormDrawerProps) {
  const t = useParametersTranslation();
  const create = useCreateParameter();
  const update = useUpdateParameter();

  if (parameter) {
    return (
      <FormDrawer<ParameterFormValues, ParameterUpdate>
        opened={opened}
        onClose={onClose}
        title={t('form.editTitle')}
        resolver={parameterResolver(
          formSchema(parameterUpdateSchema, (values: ParameterFormValues) => ({
            id: parameter.rota_parameters_id,
            ...parameterPayload(values),
          })),
          parameter,
        )}
        fields={FIELDS}
        defaultValues={{
          name: parameter.name,
          kind: parameter.has_password ? 'password' : 'value',
          // Only a plain value is shown for editing; a password's text never reaches the page.
          value: parameter.has_password ? '' : (parameter.value ?? ''),
          password: '',
          description: parameter.description ?? '',
        }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => <ParameterFormInputs form={form} current={parameter} />}
      </FormDrawer>
    );
  }
  return (
    <FormDrawer<ParameterFormValues, ParameterCreate>
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      submitLabel={t('form.create')}
      resolver={parameterResolver(formSchema(parameterCreateSchema, parameterPayload))}
      fields={FIELDS}
      defaultValues={{ name: '', kind: 'value', value: '', password: '', description: '' }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => <ParameterFormInputs form={form} />}
    </FormDrawer>
  );
}
