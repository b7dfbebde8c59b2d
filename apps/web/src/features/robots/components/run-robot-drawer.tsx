import { NumberInput, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { RUN_NOW_DEFAULTS, robotRunSchema, type Robot, type RobotRun } from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { LabelsField } from '../../../components/labels-input';
import { fieldError } from '../../../lib/form-errors';
import { formSchema, type FormValues } from '../../../lib/form-schema';
import { useCan } from '../../auth';
import { showExecutionStartedToast } from '../../activity';
import { VmSelect } from '../../vms';
import { useRunRobot } from '../api/run-robot';
import '../i18n';
import { FieldRow } from '../../../components/field-row';

type NumberField = 'priority' | 'timeout_minutes' | 'retries';

/** What the inputs hold: an emptied number input is '' and means "the default". */
export type RunRobotInputs = FormValues<
  typeof robotRunSchema,
  { id: number; rota_vms_id: number | null; labels: string[] } & Record<
    NumberField,
    number | string
  >
>;

const LIMITS: Record<NumberField, { min: number; max: number }> = {
  priority: { min: 1, max: 100 },
  timeout_minutes: { min: 1, max: 1440 },
  retries: { min: 0, max: 10 },
};

/**
 * Leaves out what was left empty, then checks with robotRunSchema (what the server runs). A
 * number input holding text it could not read is NaN, refused as that text was ("not a number").
 */
export const runRobotResolver = zodResolver(
  formSchema(robotRunSchema, (values: RunRobotInputs) => {
    const number = (name: NumberField) => {
      const value = values[name];
      if (value === '') return {};
      return { [name]: typeof value === 'number' ? value : Number.NaN };
    };
    return {
      id: values.id,
      ...(values.rota_vms_id !== null ? { rota_vms_id: values.rota_vms_id } : {}),
      ...number('priority'),
      ...number('timeout_minutes'),
      ...number('retries'),
      ...(values.labels.length > 0 ? { labels: values.labels } : {}),
    };
  }),
);

function RunRobotInputsView({ form }: { form: FormDrawerForm<RunRobotInputs, RobotRun> }) {
  const { t } = useTranslation('robots');
  const can = useCan();
  const { errors } = form.formState;

  const numberInput = (name: NumberField, label: string, hint: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <NumberInput
          label={label}
          description={hint}
          placeholder={String(RUN_NOW_DEFAULTS[name])}
          min={LIMITS[name].min}
          max={LIMITS[name].max}
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
      <Text size="sm" c="dimmed">
        {t('run.description')}
      </Text>
      {/* Listing VMs needs AGENTES.LIST; without it the run goes to any VM. */}
      {can('AGENTES.LIST') ? (
        <Controller
          control={form.control}
          name="rota_vms_id"
          render={({ field }) => (
            <VmSelect
              label={t('run.vm')}
              placeholder={t('run.vmPlaceholder')}
              description={t('run.vmHint')}
              clearable
              value={field.value}
              onChange={(id) => field.onChange(id)}
              onBlur={field.onBlur}
              name={field.name}
              error={fieldError(errors.rota_vms_id)}
            />
          )}
        />
      ) : null}
      <FieldRow cols={3}>
        {numberInput('priority', t('run.priority'), t('run.priorityHint'))}
        {numberInput('timeout_minutes', t('run.timeout'), t('run.timeoutHint'))}
        {numberInput('retries', t('run.retries'), t('run.retriesHint'))}
      </FieldRow>
      <LabelsField
        control={form.control}
        name="labels"
        label={t('run.labels')}
        description={t('run.labelsHint')}
        placeholder={t('run.labelsPlaceholder')}
      />
    </>
  );
}

type RunRobotDrawerProps = {
  opened: boolean;
  onClose: () => void;
  robot: Pick<Robot, 'rota_robots_id' | 'name'>;
};

/**
 * "Executar agora": queues one execution of the robot, outside its schedulings, optionally on
 * one VM and with its own priority, timeout and retries (empty inputs take the defaults). The
 * toast that follows links to the execution.
 */
export function RunRobotDrawer({ opened, onClose, robot }: RunRobotDrawerProps) {
  const { t } = useTranslation('robots');
  const run = useRunRobot();
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('run.title', { name: robot.name })}
      submitLabel={t('run.submit')}
      resolver={runRobotResolver}
      defaultValues={{
        id: robot.rota_robots_id,
        rota_vms_id: null,
        priority: '',
        timeout_minutes: '',
        retries: '',
        labels: [],
      }}
      onSubmit={async (values) => {
        const answer = await run.mutateAsync(values);
        showExecutionStartedToast(answer);
      }}
    >
      {(form) => <RunRobotInputsView form={form} />}
    </FormDrawer>
  );
}
