import { Fieldset, NumberInput, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { Controller } from 'react-hook-form';
import type { z } from 'zod';
import { useTranslation } from 'react-i18next';
import {
  ROBOT_STALL_MINUTES_MAX,
  ROBOT_TASK_MINUTES_MAX,
  ROBOT_TASK_RETRIES_MAX,
  STALL_ACTIONS,
  robotCreateSchema,
  robotUpdateSchema,
  type Robot,
} from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { LabelsField } from '../../../components/labels-input';
import { SwitchField } from '../../../components/switch-field';
import { fieldError } from '../../../lib/form-errors';
import { formSchema } from '../../../lib/form-schema';
import { useCreateRobot } from '../api/create-robot';
import { useUpdateRobot } from '../api/update-robot';
import '../i18n';

/** What the inputs edit, in both forms (create and update share them). */
type RobotInputs = z.input<typeof robotCreateSchema>;

type TaskNumberName = 'task_sla_minutes' | 'task_risk_minutes' | 'task_retries' | 'stall_minutes';

/** A whole number the robot's tasks follow; blank means none (minutes) or the default (retries). */
function TaskNumberInput<TOutput>({
  form,
  name,
  label,
  hint,
  min,
  max,
}: {
  form: FormDrawerForm<RobotInputs, TOutput>;
  name: TaskNumberName;
  label: string;
  hint: string;
  min: number;
  max: number;
}) {
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <NumberInput
          label={label}
          description={hint}
          min={min}
          max={max}
          allowDecimal={false}
          value={field.value ?? ''}
          onChange={(value) =>
            field.onChange(
              typeof value === 'number' ? value : name === 'task_retries' ? undefined : null,
            )
          }
          onBlur={field.onBlur}
          name={field.name}
          ref={field.ref}
          error={fieldError(form.formState.errors[name])}
        />
      )}
    />
  );
}

function RobotFormInputs<TOutput>({ form }: { form: FormDrawerForm<RobotInputs, TOutput> }) {
  const { t } = useTranslation('robots');
  const { errors } = form.formState;
  return (
    <>
      <TextInput
        label={t('form.name')}
        withAsterisk
        data-autofocus
        error={fieldError(errors.name)}
        {...form.register('name')}
      />
      <Textarea
        label={t('form.description')}
        autosize
        minRows={2}
        maxRows={6}
        error={fieldError(errors.description)}
        {...form.register('description')}
      />
      <TextInput
        label={t('form.executor')}
        description={t('form.executorHint')}
        withAsterisk
        ff="monospace"
        spellCheck={false}
        autoCapitalize="off"
        error={fieldError(errors.executor)}
        {...form.register('executor')}
      />
      <TextInput
        label={t('form.remoteRoot')}
        description={t('form.remoteRootHint')}
        ff="monospace"
        spellCheck={false}
        autoCapitalize="off"
        error={fieldError(errors.remote_root)}
        {...form.register('remote_root')}
      />
      <LabelsField
        control={form.control}
        name="required_labels"
        label={t('form.requiredLabels')}
        description={t('form.requiredLabelsHint')}
        placeholder={t('form.labelsPlaceholder')}
      />
      <Controller
        control={form.control}
        name="active"
        render={({ field }) => (
          <SwitchField
            label={t('form.active')}
            hint={t('form.activeHint')}
            checked={field.value}
            onChange={(event) => field.onChange(event.currentTarget.checked)}
            onBlur={field.onBlur}
            name={field.name}
            ref={field.ref}
            error={fieldError(errors.active)}
          />
        )}
      />
      <Fieldset legend={t('form.tasksLegend')} variant="filled" radius="md">
        <Stack gap="md">
          <TaskNumberInput
            form={form}
            name="task_sla_minutes"
            label={t('form.taskSlaMinutes')}
            hint={t('form.taskSlaMinutesHint')}
            min={1}
            max={ROBOT_TASK_MINUTES_MAX}
          />
          <TaskNumberInput
            form={form}
            name="task_risk_minutes"
            label={t('form.taskRiskMinutes')}
            hint={t('form.taskRiskMinutesHint')}
            min={1}
            max={ROBOT_TASK_MINUTES_MAX}
          />
          <TaskNumberInput
            form={form}
            name="task_retries"
            label={t('form.taskRetries')}
            hint={t('form.taskRetriesHint')}
            min={0}
            max={ROBOT_TASK_RETRIES_MAX}
          />
        </Stack>
      </Fieldset>
      <Fieldset legend={t('form.stallLegend')} variant="filled" radius="md">
        <Stack gap="md">
          <TaskNumberInput
            form={form}
            name="stall_minutes"
            label={t('form.stallMinutes')}
            hint={t('form.stallMinutesHint')}
            min={1}
            max={ROBOT_STALL_MINUTES_MAX}
          />
          <Controller
            control={form.control}
            name="stall_action"
            render={({ field }) => (
              <Select
                label={t('form.stallAction')}
                description={t('form.stallActionHint')}
                data={STALL_ACTIONS.map((value) => ({
                  value,
                  label: t(`form.stallActions.${value}`),
                }))}
                allowDeselect={false}
                value={field.value ?? 'flag'}
                onChange={(value) => field.onChange(value ?? 'flag')}
                onBlur={field.onBlur}
                name={field.name}
                ref={field.ref}
                error={fieldError(errors.stall_action)}
              />
            )}
          />
        </Stack>
      </Fieldset>
    </>
  );
}

type RobotFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The robot to edit; without it the drawer creates one. */
  robot?: Robot | null;
};

/** "Novo robô" / "Editar robô": robotCreateSchema or robotUpdateSchema, as the server checks. */
export function RobotFormDrawer({ opened, onClose, robot }: RobotFormDrawerProps) {
  const { t } = useTranslation('robots');
  const create = useCreateRobot();
  const update = useUpdateRobot();

  if (robot) {
    return (
      <FormDrawer
        opened={opened}
        onClose={onClose}
        title={t('form.editTitle')}
        schema={formSchema(robotUpdateSchema, (values: RobotInputs) => ({
          id: robot.rota_robots_id,
          ...values,
        }))}
        defaultValues={{
          name: robot.name,
          description: robot.description ?? '',
          executor: robot.executor,
          remote_root: robot.remote_root ?? '',
          active: robot.active,
          task_sla_minutes: robot.task_sla_minutes,
          task_risk_minutes: robot.task_risk_minutes,
          task_retries: robot.task_retries,
          stall_minutes: robot.stall_minutes,
          stall_action: robot.stall_action,
          required_labels: robot.required_labels,
        }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => <RobotFormInputs form={form} />}
      </FormDrawer>
    );
  }
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      submitLabel={t('form.create')}
      schema={robotCreateSchema}
      defaultValues={{
        name: '',
        description: '',
        executor: '',
        remote_root: '',
        active: true,
        task_sla_minutes: null,
        task_risk_minutes: null,
        task_retries: 0,
        stall_minutes: null,
        stall_action: 'flag',
        required_labels: [],
      }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => <RobotFormInputs form={form} />}
    </FormDrawer>
  );
}
