import { Select, Text, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Controller, type FieldError, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  attendedRunSchema,
  validateTaskData,
  type AttendedAgent,
  type AttendedRun,
  type MyRobot,
  type RobotField,
} from '@rota/contract';
import { FormDrawer } from '../../../components/form-drawer';
import { localizeMessage } from '../../../lib/i18n';
import { fieldError } from '../../../lib/form-errors';
import { showExecutionStartedToast } from '../../activity';
import { robotFieldsOfRobotQueryOptions } from '../../robots';
import { useRunAttended } from '../api/run-attended';
import '../i18n';

/** What the inputs hold: the agent's id as the Select's string, the task data as typed. */
export type AttendedRunInputs = {
  id: number;
  rota_nodes_id: string | null;
  task_data: string;
};

/** The agent to start with: the only one that fits, else the only active one among them. */
export function preselectedAgent(agents: readonly AttendedAgent[]): number | null {
  if (agents.length === 1) return agents[0]!.rota_nodes_id;
  const active = agents.filter((agent) => agent.connectivity === 'active');
  return active.length === 1 ? active[0]!.rota_nodes_id : null;
}

/**
 * Parses the task data (blank: none; else a JSON object), then checks with attendedRunSchema
 * (what the server runs) and, for a robot with fields, validateTaskData against them. Errors of
 * the robot's fields go under `task_data.<field>`, as the server names them.
 */
function attendedRunResolver(
  queryClient: QueryClient,
  fitting: number,
): Resolver<AttendedRunInputs, unknown, AttendedRun> {
  const schema = zodResolver(attendedRunSchema);
  return async (values, context, options) => {
    const errors: Record<string, unknown> = {};
    let taskData: Record<string, unknown> | undefined;
    if (values.task_data.trim() !== '') {
      try {
        const parsed = JSON.parse(values.task_data) as unknown;
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
          taskData = parsed as Record<string, unknown>;
        }
      } catch {
        // Not JSON: the same message as a value that is no object.
      }
      if (!taskData) errors.task_data = { type: 'validate', message: 'invalid_type_json_object' };
    }
    // Several machines fit and none was chosen: the server would refuse it the same way.
    if (values.rota_nodes_id === null && fitting > 1) {
      errors.rota_nodes_id = { type: 'validate', message: 'attended_agent_required' };
    }
    const body = {
      id: values.id,
      ...(values.rota_nodes_id !== null ? { rota_nodes_id: Number(values.rota_nodes_id) } : {}),
      ...(taskData ? { task_data: taskData } : {}),
    };
    const result = await schema(body as never, context, options as never);
    Object.assign(errors, result.errors);
    if (taskData && !errors.task_data) {
      const fields = await queryClient
        .ensureQueryData(robotFieldsOfRobotQueryOptions(values.id))
        .catch(() => [] as RobotField[]);
      const byField: Record<string, FieldError> = {};
      for (const issue of validateTaskData(fields, taskData)) {
        byField[issue.field.replace(/^data\./, '')] ??= {
          type: 'validate',
          message: issue.message,
        };
      }
      if (Object.keys(byField).length > 0) errors.task_data = byField;
    }
    if (Object.keys(errors).length > 0) return { values: {}, errors: errors as never };
    return { values: body as AttendedRun, errors: {} };
  };
}

/** The task data's error: its own, or one line per field of the robot the data got wrong. */
function taskDataError(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const own = error as FieldError;
  if (typeof own.message === 'string') return fieldError(own);
  const lines = Object.entries(error as Record<string, FieldError | undefined>)
    .filter(([, issue]) => typeof issue?.message === 'string')
    .map(([name, issue]) => `${name}: ${localizeMessage(issue!.message!)}`);
  return lines.length > 0 ? lines.join('\n') : undefined;
}

type AttendedRunDrawerProps = {
  opened: boolean;
  onClose: () => void;
  robot: MyRobot;
  /** The caller's attended agents (all of them: the robot's `agent_ids` pick among them). */
  agents: readonly AttendedAgent[];
};

/**
 * "Run on my machine": which of the caller's machines (those whose agent carries the robot's
 * labels) and the run's own task data. The toast that follows links to the execution.
 */
export function AttendedRunDrawer({ opened, onClose, robot, agents }: AttendedRunDrawerProps) {
  const { t } = useTranslation('attended');
  const queryClient = useQueryClient();
  const run = useRunAttended();
  const fitting = agents.filter((agent) => robot.agent_ids.includes(agent.rota_nodes_id));
  const preselected = preselectedAgent(fitting);
  const fields = useQuery({
    ...robotFieldsOfRobotQueryOptions(robot.rota_robots_id),
    enabled: opened,
  });
  const fieldNames = (fields.data ?? []).map((field) =>
    field.required ? `${field.name}*` : field.name,
  );
  return (
    <FormDrawer<AttendedRunInputs, AttendedRun>
      opened={opened}
      onClose={onClose}
      title={t('drawer.title', { name: robot.name })}
      submitLabel={t('drawer.submit')}
      resolver={attendedRunResolver(queryClient, fitting.length)}
      defaultValues={{
        id: robot.rota_robots_id,
        rota_nodes_id: preselected === null ? null : String(preselected),
        task_data: '',
      }}
      fields={(name) =>
        ['id', 'rota_nodes_id', 'task_data'].includes(name) || name.startsWith('task_data.')
      }
      onSubmit={async (values) => {
        const answer = await run.mutateAsync(values);
        showExecutionStartedToast(answer);
      }}
    >
      {(form) => (
        <>
          <Text size="sm" c="dimmed">
            {t('drawer.description')}
          </Text>
          <Controller
            control={form.control}
            name="rota_nodes_id"
            render={({ field }) => (
              <Select
                label={t('drawer.agent')}
                placeholder={t('drawer.agentPlaceholder')}
                withAsterisk={fitting.length > 1}
                data={fitting.map((agent) => ({
                  value: String(agent.rota_nodes_id),
                  label: t('drawer.agentOption', {
                    agent: agent.name,
                    vm: agent.vm_name,
                    connectivity: t(`connectivity.${agent.connectivity}`),
                  }),
                }))}
                allowDeselect={false}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                name={field.name}
                ref={field.ref}
                // The robot's labels are checked against the chosen agent: said here, under it.
                error={fieldError(form.formState.errors.rota_nodes_id ?? form.formState.errors.id)}
              />
            )}
          />
          <Textarea
            label={t('drawer.taskData')}
            description={
              fieldNames.length > 0
                ? `${t('drawer.taskDataHint')} ${t('drawer.taskDataFields', { fields: fieldNames.join(', ') })}`
                : t('drawer.taskDataHint')
            }
            placeholder='{"invoice": "A-42"}'
            autosize
            minRows={4}
            maxRows={12}
            spellCheck={false}
            styles={{
              input: { fontFamily: 'var(--mantine-font-family-monospace)' },
              error: { whiteSpace: 'pre-line' },
            }}
            error={taskDataError(form.formState.errors.task_data)}
            {...form.register('task_data')}
          />
        </>
      )}
    </FormDrawer>
  );
}
