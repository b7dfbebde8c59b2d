import { TextInput } from '@mantine/core';
import { Controller } from 'react-hook-form';
import type { z } from 'zod';
import { agentCreateSchema, agentUpdateSchema, type Agent } from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { LabelsField } from '../../../components/labels-input';
import { fieldError } from '../../../lib/form-errors';
import { formSchema } from '../../../lib/form-schema';
import { VmSelect } from '../../vms';
import { useCreateAgent } from '../api/create-agent';
import { useUpdateAgent } from '../api/update-agent';
import { useAgentsTranslation } from '../i18n';
import type { RevealedToken } from './agent-token-modal';

/** What the inputs edit, in both forms. */
type AgentInputs = z.input<typeof agentCreateSchema>;

function AgentFormInputs<TOutput>({ form }: { form: FormDrawerForm<AgentInputs, TOutput> }) {
  const t = useAgentsTranslation();
  const { errors } = form.formState;
  return (
    <>
      <TextInput
        label={t('form.name')}
        description={t('form.nameHint')}
        withAsterisk
        data-autofocus
        error={fieldError(errors.name)}
        {...form.register('name')}
      />
      <Controller
        control={form.control}
        name="rota_vms_id"
        render={({ field }) => (
          <VmSelect
            label={t('form.vm')}
            description={t('form.vmHint')}
            withAsterisk
            // Not chosen yet is undefined in the form; null keeps the select controlled.
            value={field.value ?? null}
            onChange={(id) => field.onChange(id)}
            onBlur={field.onBlur}
            name={field.name}
            ref={field.ref}
            error={fieldError(errors.rota_vms_id)}
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
    </>
  );
}

type AgentFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The agent to edit; without it the drawer creates one. */
  agent?: Agent | null;
  /** A created agent's token, to be shown once. */
  onCreated: (revealed: RevealedToken) => void;
};

/** "Novo agente" / "Editar agente": agentCreateSchema or agentUpdateSchema. */
export function AgentFormDrawer({ opened, onClose, agent, onCreated }: AgentFormDrawerProps) {
  const t = useAgentsTranslation();
  const create = useCreateAgent();
  const update = useUpdateAgent();

  if (agent) {
    return (
      <FormDrawer
        opened={opened}
        onClose={onClose}
        title={t('form.editTitle')}
        schema={formSchema(agentUpdateSchema, (values: AgentInputs) => ({
          id: agent.rota_nodes_id,
          ...values,
        }))}
        defaultValues={{
          name: agent.name,
          rota_vms_id: agent.rota_vms_id,
          labels: agent.labels,
        }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => <AgentFormInputs form={form} />}
      </FormDrawer>
    );
  }
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      submitLabel={t('form.create')}
      schema={agentCreateSchema}
      // rota_vms_id starts empty; the schema answers "VM obrigatória" until one is chosen.
      defaultValues={{ name: '', rota_vms_id: undefined, labels: [] }}
      onSubmit={async (values) => {
        const answer = await create.mutateAsync(values);
        create.reset();
        onCreated({ name: answer.data.name, token: answer.data.token });
      }}
    >
      {(form) => <AgentFormInputs form={form} />}
    </FormDrawer>
  );
}
