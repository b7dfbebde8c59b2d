import { Input, TextInput } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  profileCreateSchema,
  profileUpdateSchema,
  type Permission,
  type Profile,
} from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { fieldError } from '../../../lib/form-errors';
import { formSchema, type FormValues } from '../../../lib/form-schema';
import { useCreateProfile } from '../api/create-profile';
import { useUpdateProfile } from '../api/update-profile';
import { PermissionMatrix } from './permission-matrix';
import { normalizePermissions } from './permission-matrix-state';
import '../i18n';

/** The schema's input; the matrix always holds a list (the schema defaults a missing one). */
type ProfileInputs = FormValues<typeof profileCreateSchema, { permissions: Permission[] }>;

function ProfileFormInputs<TOutput>({ form }: { form: FormDrawerForm<ProfileInputs, TOutput> }) {
  const { t } = useTranslation('profiles');
  const { errors } = form.formState;
  return (
    <>
      <TextInput
        label={t('form.name')}
        withAsterisk
        data-autofocus
        autoComplete="off"
        error={fieldError(errors.name)}
        {...form.register('name')}
      />
      <Input.Wrapper
        labelElement="div"
        label={t('form.permissions')}
        description={t('form.permissionsHint')}
      >
        <Controller
          control={form.control}
          name="permissions"
          render={({ field, fieldState }) => (
            <PermissionMatrix
              value={field.value}
              onChange={field.onChange}
              error={fieldError(fieldState.error)}
            />
          )}
        />
      </Input.Wrapper>
    </>
  );
}

type ProfileFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The profile to edit; without it the drawer creates one. */
  profile?: Profile | null;
};

/** "Novo perfil" / "Editar perfil": a name and the permission matrix. */
export function ProfileFormDrawer({ opened, onClose, profile }: ProfileFormDrawerProps) {
  const { t } = useTranslation('profiles');
  const create = useCreateProfile();
  const update = useUpdateProfile();

  if (profile) {
    return (
      <FormDrawer
        opened={opened}
        onClose={onClose}
        title={t('form.editTitle')}
        schema={formSchema(profileUpdateSchema, (values: ProfileInputs) => ({
          id: profile.profiles_id,
          ...values,
        }))}
        defaultValues={{
          name: profile.name,
          permissions: normalizePermissions(profile.permissions),
        }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => <ProfileFormInputs form={form} />}
      </FormDrawer>
    );
  }
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      submitLabel={t('form.create')}
      schema={formSchema(profileCreateSchema, (values: ProfileInputs) => values)}
      defaultValues={{ name: '', permissions: [] }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => <ProfileFormInputs form={form} />}
    </FormDrawer>
  );
}
