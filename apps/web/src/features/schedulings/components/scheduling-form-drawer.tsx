import { NumberInput, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { Controller } from 'react-hook-form';
import {
  SCHEDULING_LIMITS,
  schedulingCreateSchema,
  schedulingUpdateSchema,
  type Scheduling,
} from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { fieldError } from '../../../lib/form-errors';
import { formSchema, type FormValues } from '../../../lib/form-schema';
import { RobotSelect } from '../../robots';
import { VmMultiSelect, type VmChoice } from '../../vms';
import { useCreateScheduling } from '../api/create-scheduling';
import { useUpdateScheduling } from '../api/update-scheduling';
import { useSchedulingsTranslation } from '../i18n';

type NumberField = 'interval_minutes' | 'timeout_minutes' | 'retries' | 'priority' | 'sleep';

/** What the inputs edit, in both forms; an emptied number input holds ''. */
type SchedulingInputs = FormValues<
  typeof schedulingCreateSchema,
  { vms: number[] } & Record<NumberField, number | ''>
>;

/**
 * The body as the schema reads it. An emptied number input is sent as NaN, which the schema
 * refuses as it refused '' (not a number: the field's own "required" message), rather than left
 * out, which would take the create's default or keep the stored value on update.
 */
function schedulingBody(values: SchedulingInputs) {
  const number = (value: number | '') => (value === '' ? Number.NaN : value);
  return {
    ...values,
    interval_minutes: number(values.interval_minutes),
    timeout_minutes: number(values.timeout_minutes),
    retries: number(values.retries),
    priority: number(values.priority),
    sleep: number(values.sleep),
  };
}

const FIELDS = [
  'name',
  'rota_robots_id',
  'interval_minutes',
  'timeout_minutes',
  'retries',
  'priority',
  'sleep',
  'active',
  'vms',
] as const;

function SchedulingFormInputs<TOutput>({
  form,
  knownVms,
}: {
  form: FormDrawerForm<SchedulingInputs, TOutput>;
  knownVms: readonly VmChoice[];
}) {
  const t = useSchedulingsTranslation();
  const { errors } = form.formState;

  const numberInput = (name: NumberField, label: string, description: string, required = false) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <NumberInput
          label={label}
          description={description}
          withAsterisk={required}
          min={SCHEDULING_LIMITS[name].min}
          max={SCHEDULING_LIMITS[name].max}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          name={field.name}
          ref={field.ref}
          error={fieldError(errors[name])}
        />
      )}
    />
  );

  return (
    <>
      <TextInput
        label={t('form.name')}
        withAsterisk
        data-autofocus
        error={fieldError(errors.name)}
        {...form.register('name')}
      />
      <Controller
        control={form.control}
        name="rota_robots_id"
        render={({ field }) => (
          <RobotSelect
            label={t('form.robot')}
            withAsterisk
            // Not chosen yet is undefined in the form; null keeps the select controlled.
            value={field.value ?? null}
            onChange={(id) => field.onChange(id)}
            onBlur={field.onBlur}
            name={field.name}
            error={fieldError(errors.rota_robots_id)}
          />
        )}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
        {numberInput('interval_minutes', t('form.interval'), t('form.intervalHint'), true)}
        {numberInput('timeout_minutes', t('form.timeout'), t('form.timeoutHint'), true)}
        {numberInput('retries', t('form.retries'), t('form.retriesHint'))}
        {numberInput('priority', t('form.priority'), t('form.priorityHint'))}
        {numberInput('sleep', t('form.sleep'), t('form.sleepHint'))}
      </SimpleGrid>
      <Controller
        control={form.control}
        name="vms"
        render={({ field }) => (
          <VmMultiSelect
            label={t('form.vms')}
            description={t('form.vmsHint')}
            placeholder={t('form.vmsPlaceholder')}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            name={field.name}
            known={knownVms}
            clearable
            error={fieldError(errors.vms as Parameters<typeof fieldError>[0])}
          />
        )}
      />
      <Controller
        control={form.control}
        name="active"
        render={({ field }) => (
          <Switch
            label={t('form.active')}
            description={t('form.activeHint')}
            checked={field.value}
            onChange={(event) => field.onChange(event.currentTarget.checked)}
            onBlur={field.onBlur}
            name={field.name}
            ref={field.ref}
            error={fieldError(errors.active)}
          />
        )}
      />
    </>
  );
}

type SchedulingFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The scheduling to edit; without it the drawer creates one. */
  scheduling?: Scheduling | null;
};

/**
 * "Novo agendamento" / "Editar agendamento": schedulingCreateSchema or schedulingUpdateSchema;
 * the VMs go with the scheduling (`vms: [ids]`), the whole set replaced on update.
 */
export function SchedulingFormDrawer({ opened, onClose, scheduling }: SchedulingFormDrawerProps) {
  const t = useSchedulingsTranslation();
  const create = useCreateScheduling();
  const update = useUpdateScheduling();

  if (scheduling) {
    return (
      <FormDrawer
        opened={opened}
        onClose={onClose}
        title={t('form.editTitle')}
        schema={formSchema(schedulingUpdateSchema, (values: SchedulingInputs) => ({
          id: scheduling.rota_schedulings_id,
          ...schedulingBody(values),
        }))}
        fields={FIELDS}
        defaultValues={{
          name: scheduling.name,
          rota_robots_id: scheduling.rota_robots_id,
          interval_minutes: scheduling.interval_minutes,
          timeout_minutes: scheduling.timeout_minutes,
          retries: scheduling.retries,
          priority: scheduling.priority,
          sleep: scheduling.sleep,
          active: scheduling.active,
          vms: scheduling.vms.map((vm) => vm.rota_vms_id),
        }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => <SchedulingFormInputs form={form} knownVms={scheduling.vms} />}
      </FormDrawer>
    );
  }
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      submitLabel={t('form.create')}
      schema={formSchema(schedulingCreateSchema, schedulingBody)}
      fields={FIELDS}
      // Interval, timeout and robot start empty (the schema asks for them); the rest are the
      // contract's defaults.
      defaultValues={{
        name: '',
        rota_robots_id: undefined,
        interval_minutes: '',
        timeout_minutes: '',
        retries: 0,
        priority: 50,
        sleep: 0,
        active: true,
        vms: [],
      }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => <SchedulingFormInputs form={form} knownVms={[]} />}
    </FormDrawer>
  );
}
