import { Input, NumberInput, SegmentedControl, Switch, Text, TextInput } from '@mantine/core';
import { Controller, useWatch } from 'react-hook-form';
import {
  MISSED_RUNS,
  SCHEDULING_LIMITS,
  SCHEDULING_TRIGGERS,
  schedulingCreateSchema,
  schedulingUpdateSchema,
  type MissedRuns,
  type Scheduling,
  type SchedulingTrigger,
} from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { MONOSPACE_INPUT } from '../../../components/monospace-input';
import { fieldError } from '../../../lib/form-errors';
import { formSchema, type FormValues } from '../../../lib/form-schema';
import { CalendarSelect, TimeZoneSelect } from '../../calendars';
import { RobotSelect } from '../../robots';
import { VmMultiSelect, type VmChoice } from '../../vms';
import { LabelsField } from '../../../components/labels-input';
import { useCreateScheduling } from '../api/create-scheduling';
import { useUpdateScheduling } from '../api/update-scheduling';
import { useSchedulingsTranslation } from '../i18n';
import { SchedulingPreview } from './scheduling-preview';
import { FieldRow } from '../../../components/field-row';

type NumberField =
  | 'interval_minutes'
  | 'timeout_minutes'
  | 'retries'
  | 'priority'
  | 'sleep'
  | 'min_pending'
  | 'max_concurrent';

/**
 * What the inputs edit, in both forms; an emptied number input holds '', an empty cron or time
 * zone ''.
 */
type SchedulingInputs = FormValues<
  typeof schedulingCreateSchema,
  {
    vms: number[];
    labels: string[];
    trigger_type: SchedulingTrigger;
    cron: string;
    time_zone: string;
    missed_runs: MissedRuns;
    rota_calendars_id: number | null;
  } & Record<NumberField, number | ''>
>;

/**
 * The body as the schema reads it. An emptied number input is sent as NaN, which the schema
 * refuses as it refused '' (not a number: the field's own "required" message), rather than left
 * out, which would take the create's default or keep the stored value on update. Fields of the
 * triggers not chosen are left out (the server keeps what it had); a cron's empty zone is null,
 * the server's zone.
 */
function schedulingBody(values: SchedulingInputs) {
  const number = (value: number | '') => (value === '' ? Number.NaN : value);
  const {
    trigger_type,
    cron,
    time_zone,
    interval_minutes,
    min_pending,
    max_concurrent,
    missed_runs,
    rota_calendars_id,
    ...rest
  } = values;
  const timed = trigger_type !== 'queue';
  return {
    ...rest,
    trigger_type,
    ...(trigger_type === 'interval' ? { interval_minutes: number(interval_minutes) } : {}),
    ...(trigger_type === 'cron' ? { cron: cron.trim(), time_zone: time_zone || null } : {}),
    ...(trigger_type === 'queue'
      ? { min_pending: number(min_pending), max_concurrent: number(max_concurrent) }
      : {}),
    // A queue trigger has no times to skip or to miss.
    ...(timed ? { missed_runs, rota_calendars_id } : {}),
    timeout_minutes: number(values.timeout_minutes),
    retries: number(values.retries),
    priority: number(values.priority),
    sleep: number(values.sleep),
  };
}

const FIELDS = [
  'name',
  'rota_robots_id',
  'trigger_type',
  'interval_minutes',
  'cron',
  'time_zone',
  'missed_runs',
  'rota_calendars_id',
  'min_pending',
  'max_concurrent',
  'timeout_minutes',
  'retries',
  'priority',
  'sleep',
  'active',
  'vms',
  'labels',
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
  const [trigger, cron, timeZone, intervalMinutes, calendar, minPending] = useWatch({
    control: form.control,
    name: [
      'trigger_type',
      'cron',
      'time_zone',
      'interval_minutes',
      'rota_calendars_id',
      'min_pending',
    ],
  });

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
      <Controller
        control={form.control}
        name="trigger_type"
        render={({ field }) => (
          <Input.Wrapper
            label={t('form.trigger')}
            description={t(`form.triggerHint.${field.value}`)}
            error={fieldError(errors.trigger_type)}
          >
            <SegmentedControl
              aria-label={t('form.trigger')}
              fullWidth
              mt={4}
              data={SCHEDULING_TRIGGERS.map((value) => ({ value, label: t(`trigger.${value}`) }))}
              value={field.value}
              onChange={(value) => field.onChange(value as SchedulingTrigger)}
              name={field.name}
            />
          </Input.Wrapper>
        )}
      />
      {trigger === 'interval'
        ? numberInput('interval_minutes', t('form.interval'), t('form.intervalHint'), true)
        : null}
      {trigger === 'cron' ? (
        <>
          <TextInput
            label={t('form.cron')}
            description={t('form.cronHint')}
            placeholder="0 7 * * 1-5"
            withAsterisk
            styles={MONOSPACE_INPUT}
            autoComplete="off"
            spellCheck={false}
            error={fieldError(errors.cron)}
            {...form.register('cron')}
          />
          <Controller
            control={form.control}
            name="time_zone"
            render={({ field }) => (
              <TimeZoneSelect
                label={t('form.timeZone')}
                description={t('form.timeZoneHint')}
                placeholder={t('form.timeZonePlaceholder')}
                clearable
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                name={field.name}
                error={fieldError(errors.time_zone)}
              />
            )}
          />
        </>
      ) : null}
      {trigger === 'queue' ? (
        <>
          <FieldRow>
            {numberInput('min_pending', t('form.minPending'), t('form.minPendingHint'), true)}
            {numberInput(
              'max_concurrent',
              t('form.maxConcurrent'),
              t('form.maxConcurrentHint'),
              true,
            )}
          </FieldRow>
          <Text size="sm" c="dimmed" role="status">
            {t('preview.waiting.queue', { count: minPending === '' ? 1 : minPending })}
          </Text>
        </>
      ) : (
        <>
          <Controller
            control={form.control}
            name="rota_calendars_id"
            render={({ field }) => (
              <CalendarSelect
                description={t('form.calendarHint')}
                clearable
                value={field.value ?? null}
                onChange={(id) => field.onChange(id)}
                onBlur={field.onBlur}
                name={field.name}
                error={fieldError(errors.rota_calendars_id)}
              />
            )}
          />
          <Controller
            control={form.control}
            name="missed_runs"
            render={({ field }) => (
              <Input.Wrapper
                label={t('form.missedRuns')}
                description={t(`form.missedRunsHint.${field.value}`)}
                error={fieldError(errors.missed_runs)}
              >
                <SegmentedControl
                  aria-label={t('form.missedRuns')}
                  fullWidth
                  mt={4}
                  data={MISSED_RUNS.map((value) => ({ value, label: t(`missedRuns.${value}`) }))}
                  value={field.value}
                  onChange={(value) => field.onChange(value as MissedRuns)}
                  name={field.name}
                />
              </Input.Wrapper>
            )}
          />
          <SchedulingPreview
            form={form}
            inputs={{
              trigger_type: trigger,
              cron,
              time_zone: timeZone,
              interval_minutes: intervalMinutes,
              rota_calendars_id: calendar,
            }}
          />
        </>
      )}
      <FieldRow>
        {numberInput('timeout_minutes', t('form.timeout'), t('form.timeoutHint'), true)}
        {numberInput('retries', t('form.retries'), t('form.retriesHint'))}
        {numberInput('priority', t('form.priority'), t('form.priorityHint'))}
        {numberInput('sleep', t('form.sleep'), t('form.sleepHint'))}
      </FieldRow>
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
      <LabelsField
        control={form.control}
        name="labels"
        label={t('form.labels')}
        description={t('form.labelsHint')}
        placeholder={t('form.labelsPlaceholder')}
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
          trigger_type: scheduling.trigger_type,
          interval_minutes: scheduling.interval_minutes,
          cron: scheduling.cron ?? '',
          time_zone: scheduling.time_zone ?? '',
          missed_runs: scheduling.missed_runs,
          rota_calendars_id: scheduling.rota_calendars_id,
          min_pending: scheduling.min_pending,
          max_concurrent: scheduling.max_concurrent,
          timeout_minutes: scheduling.timeout_minutes,
          retries: scheduling.retries,
          priority: scheduling.priority,
          sleep: scheduling.sleep,
          active: scheduling.active,
          vms: scheduling.vms.map((vm) => vm.rota_vms_id),
          labels: scheduling.labels,
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
        trigger_type: 'interval',
        interval_minutes: '',
        cron: '',
        time_zone: '',
        missed_runs: 'run_once',
        rota_calendars_id: null,
        min_pending: 1,
        max_concurrent: 1,
        timeout_minutes: '',
        retries: 0,
        priority: 50,
        sleep: 0,
        active: true,
        vms: [],
        labels: [],
      }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => <SchedulingFormInputs form={form} knownVms={[]} />}
    </FormDrawer>
  );
}
