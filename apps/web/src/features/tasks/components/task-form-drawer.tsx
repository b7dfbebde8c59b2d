import { useState } from 'react';
import {
  Alert,
  Fieldset,
  Loader,
  NumberInput,
  Switch,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  Controller,
  useWatch,
  type FieldError,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  TASK_DEFAULT_PRIORITY,
  taskCreateSchema,
  validateTaskData,
  type MessageKey,
  type RobotField,
  type TaskCreate,
} from '@rota/contract';
import { DayInput, DayTimeInput } from '../../../components/date-inputs';
import { FormDrawer } from '../../../components/form-drawer';
import { fieldError } from '../../../lib/form-errors';
import { formSchema, type FormValues } from '../../../lib/form-schema';
import { localDateTimeInputValue } from '../../../lib/format';
import { robotFieldsOfRobotQueryOptions } from '../../robots';
import { RobotSelect } from '../../robots';
import { useCreateTask } from '../api/create-task';
import '../i18n';

/** What the inputs hold; the resolver turns it into a TaskCreate. */
export type TaskFormValues = FormValues<
  typeof taskCreateSchema,
  {
    rota_robots_id: number | null;
    label: string;
    /**
     * By field name: text and dates as typed, numbers, booleans, JSON as text. A robot that
     * declares no fields takes any JSON object: then the whole object as text.
     */
    data: Record<string, unknown> | string;
    priority: number | string;
    /** `<input type="datetime-local">` value, in the browser's time zone. */
    expiration_date: string;
    /** Optional `datetime-local` values; blank: none. */
    deadline: string;
    postpone_until: string;
  }
>;

type DataIssue = { name: string; message: MessageKey };

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/** A local `datetime-local` value as an instant with offset, so the server reads the same moment. */
export function expirationInstantOf(value: string): string {
  const trimmed = value.trim();
  if (!LOCAL_DATE_TIME.test(trimmed)) return trimmed;
  const date = new Date(trimmed);
  return Number.isNaN(date.getTime()) ? trimmed : date.toISOString();
}

/** An optional `datetime-local` value: blank is none (undefined), else the instant. */
export function optionalInstantOf(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : expirationInstantOf(value);
}

/**
 * The inputs' values as the `data` the robot reads: blank inputs left out, numbers as numbers,
 * JSON parsed. Returns the values that could not be read as their type.
 */
export function taskDataOf(
  fields: readonly RobotField[],
  raw: Record<string, unknown> | undefined,
): { data: Record<string, unknown>; issues: DataIssue[] } {
  const data: Record<string, unknown> = {};
  const issues: DataIssue[] = [];
  for (const field of fields) {
    const value = raw?.[field.name];
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' && value.trim() === '' && field.type !== 'text') continue;
    switch (field.type) {
      case 'text':
        if (typeof value === 'string' && value.trim() !== '') data[field.name] = value;
        break;
      case 'number': {
        const number = typeof value === 'number' ? value : Number(value);
        if (Number.isFinite(number)) data[field.name] = number;
        else issues.push({ name: field.name, message: 'invalid_type_number' });
        break;
      }
      case 'boolean':
        data[field.name] = value === true;
        break;
      case 'date':
        data[field.name] = value;
        break;
      case 'json':
        try {
          data[field.name] = JSON.parse(String(value)) as unknown;
        } catch {
          issues.push({ name: field.name, message: 'invalid_type_json' });
        }
        break;
    }
  }
  return { data, issues };
}

/** A fieldless robot's data as typed: blank is none, else a JSON object (not a list or value). */
export function freeTaskDataOf(raw: unknown): {
  data: Record<string, unknown>;
  issue: MessageKey | null;
} {
  if (typeof raw !== 'string' || raw.trim() === '') return { data: {}, issue: null };
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return { data: parsed as Record<string, unknown>, issue: null };
    }
  } catch {
    // Not JSON: the same message as a value that is no object.
  }
  return { data: {}, issue: 'invalid_type_json_object' };
}

/**
 * Converts the inputs, then validates with the contract: taskCreateSchema for the task and
 * validateTaskData for `data` against the robot's fields (both are what the server runs).
 */
function taskResolver(queryClient: QueryClient): Resolver<TaskFormValues, unknown, TaskCreate> {
  return async (values, context, options) => {
    const robotId = values.rota_robots_id;
    const fields =
      robotId !== null
        ? await queryClient
            .ensureQueryData(robotFieldsOfRobotQueryOptions(robotId))
            .catch(() => [] as RobotField[])
        : [];
    const free = fields.length === 0 ? freeTaskDataOf(values.data) : null;
    const { data, issues } = free
      ? { data: free.data, issues: [] }
      : taskDataOf(fields, typeof values.data === 'string' ? {} : values.data);
    const expiration = expirationInstantOf(values.expiration_date);
    const base = zodResolver(
      formSchema(taskCreateSchema, (inputs: TaskFormValues) => ({
        // No robot: NaN, which the schema refuses with "Robô obrigatório" as it refused null.
        rota_robots_id: inputs.rota_robots_id ?? Number.NaN,
        label: inputs.label,
        data,
        priority: typeof inputs.priority === 'number' ? inputs.priority : undefined,
        expiration_date: expiration,
        deadline: optionalInstantOf(inputs.deadline),
        postpone_until: optionalInstantOf(inputs.postpone_until),
      })),
    );
    const result = await base(values, context, options);
    const errors = { ...result.errors };
    const dataErrors: Record<string, FieldError> = {};
    for (const issue of issues)
      dataErrors[issue.name] = { type: 'validate', message: issue.message };
    for (const issue of validateTaskData(fields, data)) {
      const name = issue.field.replace(/^data\./, '');
      dataErrors[name] ??= { type: 'validate', message: issue.message };
    }
    if (!errors.expiration_date && expiration && Date.parse(expiration) <= Date.now()) {
      errors.expiration_date = { type: 'validate', message: 'expiration_in_past' };
    }
    // Errors by field of `data`; for a fieldless robot, whose one input is `data` itself, its own.
    if (Object.keys(dataErrors).length > 0) Object.assign(errors, { data: dataErrors });
    if (free?.issue) Object.assign(errors, { data: { type: 'validate', message: free.issue } });
    // No error of its own: the schema's answer, its parsed body when it found none either.
    if (Object.keys(errors).length === 0) return result;
    return { values: {}, errors };
  };
}

function DataInput({
  field,
  form,
}: {
  field: RobotField;
  form: UseFormReturn<TaskFormValues, unknown, TaskCreate>;
}) {
  const { t } = useTranslation('tasks');
  const name = `data.${field.name}` as const;
  const errors = form.formState.errors.data as Record<string, FieldError> | undefined;
  const error = fieldError(errors?.[field.name]);
  const common = { label: field.label, withAsterisk: field.required, error };
  switch (field.type) {
    case 'number':
      return (
        <Controller
          control={form.control}
          name={name}
          defaultValue=""
          render={({ field: input }) => (
            <NumberInput
              {...common}
              value={input.value as number | string}
              onChange={input.onChange}
              onBlur={input.onBlur}
              name={input.name}
              ref={input.ref}
            />
          )}
        />
      );
    case 'boolean':
      return (
        <Controller
          control={form.control}
          name={name}
          defaultValue={false}
          render={({ field: input }) => (
            <Switch
              label={field.label}
              error={error}
              checked={input.value === true}
              onChange={(event) => input.onChange(event.currentTarget.checked)}
              onBlur={input.onBlur}
              name={input.name}
              ref={input.ref}
            />
          )}
        />
      );
    case 'json':
      return (
        <Controller
          control={form.control}
          name={name}
          defaultValue=""
          render={({ field: input }) => (
            <Textarea
              {...common}
              description={t('form.jsonHint')}
              autosize
              minRows={3}
              maxRows={10}
              ff="monospace"
              spellCheck={false}
              value={input.value as string}
              onChange={(event) => input.onChange(event.currentTarget.value)}
              onBlur={input.onBlur}
              name={input.name}
              ref={input.ref}
            />
          )}
        />
      );
    case 'date':
      // `YYYY-MM-DD`, typed in the console's language.
      return (
        <Controller
          control={form.control}
          name={name}
          defaultValue=""
          render={({ field: input }) => (
            <DayInput
              {...common}
              clearable
              value={input.value as string}
              onChange={input.onChange}
              onBlur={input.onBlur}
              name={input.name}
              ref={input.ref}
            />
          )}
        />
      );
    default:
      return (
        <Controller
          control={form.control}
          name={name}
          defaultValue=""
          render={({ field: input }) => (
            <TextInput
              {...common}
              type="text"
              value={input.value as string}
              onChange={(event) => input.onChange(event.currentTarget.value)}
              onBlur={input.onBlur}
              name={input.name}
              ref={input.ref}
            />
          )}
        />
      );
  }
}

function DataInputs({ form }: { form: UseFormReturn<TaskFormValues, unknown, TaskCreate> }) {
  const { t } = useTranslation('tasks');
  const robotId = useWatch({ control: form.control, name: 'rota_robots_id' });
  const fields = useQuery({
    ...robotFieldsOfRobotQueryOptions(robotId ?? 0),
    enabled: robotId !== null,
  });
  let content;
  if (robotId === null) {
    content = (
      <Text size="sm" c="dimmed">
        {t('form.chooseRobotFirst')}
      </Text>
    );
  } else if (fields.isPending) {
    content = (
      <Text size="sm" c="dimmed" role="status">
        <Loader size="xs" mr="xs" aria-hidden />
        {t('form.loadingFields')}
      </Text>
    );
  } else if (fields.isError) {
    content = (
      <Alert color="red" variant="light">
        {t('form.fieldsError')}
      </Alert>
    );
  } else if (fields.data.length === 0) {
    return <FreeDataInput form={form} />;
  } else {
    content = fields.data.map((field) => (
      <DataInput key={`${robotId}:${field.name}`} field={field} form={form} />
    ));
  }
  // A server error about `data` as a whole (not one of its fields).
  const whole = form.formState.errors.data as FieldError | undefined;
  return (
    <Fieldset legend={t('form.data')} variant="filled" radius="md">
      <div style={{ display: 'flex', flexDirection: 'column', gap: 'var(--mantine-spacing-md)' }}>
        {content}
        {typeof whole?.message === 'string' ? (
          <Text size="sm" c="red">
            {fieldError(whole)}
          </Text>
        ) : null}
      </div>
    </Fieldset>
  );
}

/** A robot without fields takes any JSON object as its task's data. */
function FreeDataInput({ form }: { form: UseFormReturn<TaskFormValues, unknown, TaskCreate> }) {
  const { t } = useTranslation('tasks');
  return (
    <Controller
      control={form.control}
      name="data"
      render={({ field: input }) => (
        <Textarea
          label={t('form.freeData')}
          description={t('form.noFields')}
          placeholder='{"invoice": 123}'
          autosize
          minRows={3}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          value={typeof input.value === 'string' ? input.value : ''}
          onChange={input.onChange}
          onBlur={input.onBlur}
          name={input.name}
          ref={input.ref}
          error={fieldError(form.formState.errors.data as FieldError | undefined)}
        />
      )}
    />
  );
}

type TaskFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** Create for this robot (its Tasks tab); otherwise the form asks which one. */
  robotId?: number;
};

/** "Nova tarefa": robot, then its fields as typed inputs, label, priority, expiration date. */
export function TaskFormDrawer({ opened, onClose, robotId }: TaskFormDrawerProps) {
  const { t } = useTranslation('tasks');
  const queryClient = useQueryClient();
  const create = useCreateTask();
  // A week from when the page opened, at the end of that day: a sensible, editable default.
  const [defaultExpiration] = useState(() => {
    const inAWeek = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000);
    inAWeek.setHours(23, 59, 0, 0);
    return localDateTimeInputValue(inAWeek);
  });
  return (
    <FormDrawer<TaskFormValues, TaskCreate>
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      submitLabel={t('form.create')}
      resolver={taskResolver(queryClient)}
      defaultValues={{
        rota_robots_id: robotId ?? null,
        label: '',
        data: {},
        priority: TASK_DEFAULT_PRIORITY,
        expiration_date: defaultExpiration,
        deadline: '',
        postpone_until: '',
      }}
      fields={(name) =>
        [
          'rota_robots_id',
          'label',
          'priority',
          'expiration_date',
          'deadline',
          'postpone_until',
          'data',
        ].includes(name) || name.startsWith('data.')
      }
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => (
        <>
          {robotId === undefined ? (
            <Controller
              control={form.control}
              name="rota_robots_id"
              render={({ field }) => (
                <RobotSelect
                  label={t('form.robot')}
                  placeholder={t('form.robotPlaceholder')}
                  withAsterisk
                  value={field.value}
                  onChange={(id) => {
                    field.onChange(id);
                    // Another robot, other fields: start its data afresh.
                    form.setValue('data', {});
                  }}
                  onBlur={field.onBlur}
                  error={fieldError(form.formState.errors.rota_robots_id)}
                />
              )}
            />
          ) : null}
          <DataInputs form={form} />
          <TextInput
            label={t('form.label')}
            description={t('form.labelHint')}
            error={fieldError(form.formState.errors.label)}
            {...form.register('label')}
          />
          <Controller
            control={form.control}
            name="priority"
            render={({ field }) => (
              <NumberInput
                label={t('form.priority')}
                description={t('form.priorityHint')}
                min={1}
                max={100}
                allowDecimal={false}
                placeholder={String(TASK_DEFAULT_PRIORITY)}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                name={field.name}
                ref={field.ref}
                error={fieldError(form.formState.errors.priority)}
              />
            )}
          />
          <Controller
            control={form.control}
            name="expiration_date"
            render={({ field: input }) => (
              <DayTimeInput
                label={t('form.expirationDate')}
                description={t('form.expirationHint')}
                withAsterisk

                error={fieldError(form.formState.errors.expiration_date)}
                value={input.value}
                onChange={input.onChange}
                onBlur={input.onBlur}
                name={input.name}
                ref={input.ref}
              />
            )}
          />
          <Controller
            control={form.control}
            name="deadline"
            render={({ field: input }) => (
              <DayTimeInput
                label={t('form.deadline')}
                description={t('form.deadlineHint')}
                clearable
                error={fieldError(form.formState.errors.deadline)}
                value={input.value}
                onChange={input.onChange}
                onBlur={input.onBlur}
                name={input.name}
                ref={input.ref}
              />
            )}
          />
          <Controller
            control={form.control}
            name="postpone_until"
            render={({ field: input }) => (
              <DayTimeInput
                label={t('form.postponeUntil')}
                description={t('form.postponeHint')}
                clearable
                error={fieldError(form.formState.errors.postpone_until)}
                value={input.value}
                onChange={input.onChange}
                onBlur={input.onBlur}
                name={input.name}
                ref={input.ref}
              />
            )}
          />
        </>
      )}
    </FormDrawer>
  );
}
