import { Select, TextInput } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  ROBOT_FIELD_TYPES,
  robotFieldCreateSchema,
  robotFieldUpdateSchema,
  type RobotField,
} from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { SwitchField } from '../../../components/switch-field';
import { fieldError } from '../../../lib/form-errors';
import { formSchema } from '../../../lib/form-schema';
import { useCreateRobotField } from '../api/create-robot-field';
import { useUpdateRobotField } from '../api/update-robot-field';
import { RobotSelect } from './robot-select';
import '../i18n';

/** What the inputs edit; the robot only on create (a field stays with its robot). */
type FieldInputs = z.input<typeof robotFieldCreateSchema>;

function FieldFormInputs<TOutput>({
  form,
  withRobot,
}: {
  form: FormDrawerForm<FieldInputs, TOutput>;
  withRobot: boolean;
}) {
  const { t } = useTranslation('robots');
  const { errors } = form.formState;
  return (
    <>
      {withRobot ? (
        <Controller
          control={form.control}
          name="rota_robots_id"
          render={({ field }) => (
            <RobotSelect
              label={t('fields.robot')}
              withAsterisk
              // Not chosen yet is undefined in the form; null keeps the select controlled.
              value={field.value ?? null}
              onChange={(id) => field.onChange(id)}
              onBlur={field.onBlur}
              error={fieldError(errors.rota_robots_id)}
            />
          )}
        />
      ) : null}
      <TextInput
        label={t('fields.name')}
        description={t('fields.nameHint')}
        withAsterisk
        ff="monospace"
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        error={fieldError(errors.name)}
        {...form.register('name')}
      />
      <TextInput
        label={t('fields.fieldLabel')}
        description={t('fields.labelHint')}
        withAsterisk
        error={fieldError(errors.label)}
        {...form.register('label')}
      />
      <Controller
        control={form.control}
        name="type"
        render={({ field }) => (
          <Select
            label={t('fields.type')}
            data={ROBOT_FIELD_TYPES.map((type) => ({
              value: type,
              label: t(`fields.types.${type}`),
            }))}
            value={field.value}
            onChange={(value) => value && field.onChange(value)}
            onBlur={field.onBlur}
            allowDeselect={false}
            error={fieldError(errors.type)}
          />
        )}
      />
      <Controller
        control={form.control}
        name="required"
        render={({ field }) => (
          <SwitchField
            label={t('fields.required')}
            hint={t('fields.requiredHint')}
            checked={field.value}
            onChange={(event) => field.onChange(event.currentTarget.checked)}
            onBlur={field.onBlur}
            name={field.name}
            ref={field.ref}
          />
        )}
      />
    </>
  );
}

type RobotFieldFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The field to edit; without it the drawer creates one. */
  field?: RobotField | null;
  /** Create for this robot (its detail page) instead of asking which one. */
  robotId?: number;
};

/** "Novo campo" / "Editar campo" (robotFieldCreateSchema / robotFieldUpdateSchema). */
export function RobotFieldFormDrawer({
  opened,
  onClose,
  field,
  robotId,
}: RobotFieldFormDrawerProps) {
  const { t } = useTranslation('robots');
  const create = useCreateRobotField();
  const update = useUpdateRobotField();

  if (field) {
    return (
      <FormDrawer
        opened={opened}
        onClose={onClose}
        title={t('fields.editTitle')}
        schema={formSchema(
          robotFieldUpdateSchema,
          ({ rota_robots_id: _robot, ...values }: FieldInputs) => ({
            id: field.rota_robot_fields_id,
            ...values,
          }),
        )}
        defaultValues={{
          name: field.name,
          label: field.label,
          type: field.type,
          required: field.required,
        }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => <FieldFormInputs form={form} withRobot={false} />}
      </FormDrawer>
    );
  }
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('fields.createTitle')}
      submitLabel={t('fields.create')}
      schema={robotFieldCreateSchema}
      defaultValues={{
        // Empty until chosen: the schema answers "Robô obrigatório".
        rota_robots_id: robotId,
        name: '',
        label: '',
        type: 'text',
        required: false,
      }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => <FieldFormInputs form={form} withRobot={robotId === undefined} />}
    </FormDrawer>
  );
}
