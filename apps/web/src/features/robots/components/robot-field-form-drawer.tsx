import { Select, TextInput } from '@mantine/core';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  ROBOT_FIELD_TYPES,
  robotFieldCreateSchema,
  robotFieldUpdateSchema,
  type RobotField,
  type RobotFieldType,
} from '@rota/contract';
import { FormDrawer } from '../../../components/form-drawer';
import { SwitchField } from '../../../components/switch-field';
import { fieldError } from '../../../lib/form-errors';
import { useCreateRobotField } from '../api/create-robot-field';
import { useUpdateRobotField } from '../api/update-robot-field';
import { RobotSelect } from './robot-select';
import '../i18n';

type FieldInputs = {
  rota_robots_id: number | null;
  name: string;
  label: string;
  type: RobotFieldType;
  required: boolean;
};

function FieldFormInputs({
  form,
  withRobot,
}: {
  form: UseFormReturn<FieldInputs>;
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
              value={field.value}
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
        schema={robotFieldUpdateSchema}
        defaultValues={{
          id: field.rota_robot_fields_id,
          name: field.name,
          label: field.label,
          type: field.type,
          required: field.required,
        }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => (
          <FieldFormInputs form={form as unknown as UseFormReturn<FieldInputs>} withRobot={false} />
        )}
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
        // null until chosen: the schema answers "Robô obrigatório".
        rota_robots_id: (robotId ?? null) as number,
        name: '',
        label: '',
        type: 'text',
        required: false,
      }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => (
        <FieldFormInputs
          form={form as unknown as UseFormReturn<FieldInputs>}
          withRobot={robotId === undefined}
        />
      )}
    </FormDrawer>
  );
}
