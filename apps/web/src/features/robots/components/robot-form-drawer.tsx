import { TextInput, Textarea } from '@mantine/core';
import { Controller } from 'react-hook-form';
import type { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { robotCreateSchema, robotUpdateSchema, type Robot } from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { SwitchField } from '../../../components/switch-field';
import { fieldError } from '../../../lib/form-errors';
import { formSchema } from '../../../lib/form-schema';
import { useCreateRobot } from '../api/create-robot';
import { useUpdateRobot } from '../api/update-robot';
import '../i18n';

/** What the inputs edit, in both forms (create and update share them). */
type RobotInputs = z.input<typeof robotCreateSchema>;

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
      defaultValues={{ name: '', description: '', executor: '', remote_root: '', active: true }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => <RobotFormInputs form={form} />}
    </FormDrawer>
  );
}
