import { TextInput, Textarea } from '@mantine/core';
import type { z } from 'zod';
import { vmCreateSchema, vmUpdateSchema, type Vm } from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { fieldError } from '../../../lib/form-errors';
import { formSchema } from '../../../lib/form-schema';
import { MONOSPACE_INPUT } from '../../../components/monospace-input';
import { useCreateVm } from '../api/create-vm';
import { useUpdateVm } from '../api/update-vm';
import { useVmsTranslation } from '../i18n';

/** What the inputs edit, in both forms (create and update share them). */
type VmInputs = z.input<typeof vmCreateSchema>;

function VmFormInputs<TOutput>({ form }: { form: FormDrawerForm<VmInputs, TOutput> }) {
  const t = useVmsTranslation();
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
      <TextInput
        label={t('form.hostname')}
        description={t('form.hostnameHint')}
        withAsterisk
        styles={MONOSPACE_INPUT}
        spellCheck={false}
        autoCapitalize="off"
        error={fieldError(errors.hostname)}
        {...form.register('hostname')}
      />
      <TextInput
        label={t('form.os')}
        placeholder={t('form.osPlaceholder')}
        error={fieldError(errors.os)}
        {...form.register('os')}
      />
      <TextInput
        label={t('form.label')}
        description={t('form.labelHint')}
        error={fieldError(errors.label)}
        {...form.register('label')}
      />
      <Textarea
        label={t('form.description')}
        autosize
        minRows={2}
        maxRows={6}
        error={fieldError(errors.description)}
        {...form.register('description')}
      />
    </>
  );
}

type VmFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The VM to edit; without it the drawer creates one. */
  vm?: Vm | null;
};

/** "Nova VM" / "Editar VM": vmCreateSchema or vmUpdateSchema, as the server checks. */
export function VmFormDrawer({ opened, onClose, vm }: VmFormDrawerProps) {
  const t = useVmsTranslation();
  const create = useCreateVm();
  const update = useUpdateVm();

  if (vm) {
    return (
      <FormDrawer
        opened={opened}
        onClose={onClose}
        title={t('form.editTitle')}
        schema={formSchema(vmUpdateSchema, (values: VmInputs) => ({
          id: vm.rota_vms_id,
          ...values,
        }))}
        defaultValues={{
          name: vm.name,
          hostname: vm.hostname,
          label: vm.label ?? '',
          os: vm.os ?? '',
          description: vm.description ?? '',
        }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => <VmFormInputs form={form} />}
      </FormDrawer>
    );
  }
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      submitLabel={t('form.create')}
      schema={vmCreateSchema}
      defaultValues={{ name: '', hostname: '', label: '', os: '', description: '' }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => <VmFormInputs form={form} />}
    </FormDrawer>
  );
}
