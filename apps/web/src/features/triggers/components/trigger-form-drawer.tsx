import { TextInput } from '@mantine/core';
import {
  triggerCreateSchema,
  triggerUpdateSchema,
  type Trigger,
  type TriggerWithToken,
} from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { fieldError } from '../../../lib/form-errors';
import { formSchema } from '../../../lib/form-schema';
import { useCreateTrigger } from '../api/create-trigger';
import { useUpdateTrigger } from '../api/update-trigger';
import { useTriggersTranslation } from '../i18n';

type TriggerInputs = { name: string };

function TriggerNameInput<TOutput>({ form }: { form: FormDrawerForm<TriggerInputs, TOutput> }) {
  const t = useTriggersTranslation();
  return (
    <TextInput
      label={t('form.name')}
      description={t('form.nameHint')}
      withAsterisk
      data-autofocus
      error={fieldError(form.formState.errors.name)}
      {...form.register('name')}
    />
  );
}

type TriggerFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  robotId: number;
  /** The trigger to rename; null for a new one. */
  trigger: Trigger | null;
  /** A new trigger, with its token, for the section to show once. */
  onCreated: (trigger: TriggerWithToken) => void;
};

/** A trigger has only a name: the robot is the page's, the token is made by the server. */
export function TriggerFormDrawer({
  opened,
  onClose,
  robotId,
  trigger,
  onCreated,
}: TriggerFormDrawerProps) {
  const t = useTriggersTranslation();
  const create = useCreateTrigger();
  const update = useUpdateTrigger();
  if (trigger) {
    return (
      <FormDrawer
        opened={opened}
        onClose={onClose}
        title={t('form.editTitle')}
        schema={formSchema(triggerUpdateSchema, (values: TriggerInputs) => ({
          id: trigger.rota_triggers_id,
          ...values,
        }))}
        fields={['name']}
        defaultValues={{ name: trigger.name }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => <TriggerNameInput form={form} />}
      </FormDrawer>
    );
  }
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      submitLabel={t('form.create')}
      schema={formSchema(triggerCreateSchema, (values: TriggerInputs) => ({
        rota_robots_id: robotId,
        ...values,
      }))}
      fields={['name']}
      defaultValues={{ name: '' }}
      onSubmit={async (values) => {
        const answer = await create.mutateAsync(values);
        onCreated(answer.data);
      }}
    >
      {(form) => <TriggerNameInput form={form} />}
    </FormDrawer>
  );
}
