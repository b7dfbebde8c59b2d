import { PasswordInput, TextInput } from '@mantine/core';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { AccessRequest, MeResponse, User } from '@rota/contract';
import { FormDrawer } from '../../../components/form-drawer';
import { SwitchField } from '../../../components/switch-field';
import { fieldError } from '../../../lib/form-errors';
import { isApiError } from '../../../lib/http';
import { showErrorToast } from '../../../lib/notify';
import { useCreateUser } from '../api/create-user';
import { useUpdateUser } from '../api/update-user';
import { useUploadAvatar } from '../api/upload-avatar';
import { AvatarField } from './avatar-field';
import { MembershipsEditor } from './memberships-editor';
import {
  isUserFormField,
  userFormDefaults,
  userFormResolver,
  type UserFormOutput,
  type UserFormValues,
} from './user-form';
import '../i18n';
import { FieldRow } from '../../../components/field-row';

type Form = UseFormReturn<UserFormValues, unknown, UserFormOutput>;

function UserFormInputs({ form, me, target }: { form: Form; me: MeResponse; target: User | null }) {
  const { t } = useTranslation('users');
  const { errors } = form.formState;
  const [name, lastName] = useWatch({ control: form.control, name: ['name', 'last_name'] });
  return (
    <>
      <AvatarField
        form={form}
        current={target?.avatar ?? null}
        fullName={`${name} ${lastName}`.trim()}
      />
      <FieldRow>
        <TextInput
          label={t('form.name')}
          withAsterisk
          data-autofocus
          autoComplete="off"
          error={fieldError(errors.name)}
          {...form.register('name')}
        />
        <TextInput
          label={t('form.lastName')}
          withAsterisk
          autoComplete="off"
          error={fieldError(errors.last_name)}
          {...form.register('last_name')}
        />
      </FieldRow>
      <TextInput
        label={t('form.email')}
        type="email"
        withAsterisk
        autoComplete="off"
        error={fieldError(errors.email)}
        {...form.register('email')}
      />
      <TextInput
        label={t('form.access')}
        description={t('form.accessHint')}
        withAsterisk
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        error={fieldError(errors.access)}
        {...form.register('access')}
      />
      <FieldRow>
        <TextInput
          label={t('form.group')}
          withAsterisk
          error={fieldError(errors.group)}
          {...form.register('group')}
        />
        <TextInput
          label={t('form.sector')}
          withAsterisk
          error={fieldError(errors.sector)}
          {...form.register('sector')}
        />
        <TextInput
          label={t('form.work')}
          withAsterisk
          error={fieldError(errors.work)}
          {...form.register('work')}
        />
        <TextInput
          label={t('form.role')}
          withAsterisk
          error={fieldError(errors.role)}
          {...form.register('role')}
        />
      </FieldRow>
      {target ? null : (
        <FieldRow>
          <PasswordInput
            label={t('form.password')}
            description={t('form.passwordHint')}
            withAsterisk
            autoComplete="new-password"
            error={fieldError(errors.password)}
            {...form.register('password')}
          />
          <PasswordInput
            label={t('form.confirmPassword')}
            withAsterisk
            autoComplete="new-password"
            error={fieldError(errors.confirm_password)}
            {...form.register('confirm_password')}
          />
        </FieldRow>
      )}
      <Controller
        control={form.control}
        name="password_change_required"
        render={({ field }) => (
          <SwitchField
            label={t('form.passwordChangeRequired')}
            hint={t('form.passwordChangeRequiredHint')}
            checked={field.value}
            onChange={(event) => field.onChange(event.currentTarget.checked)}
            onBlur={field.onBlur}
            name={field.name}
            ref={field.ref}
            error={fieldError(errors.password_change_required)}
          />
        )}
      />
      <MembershipsEditor form={form} me={me} target={target} />
    </>
  );
}

type UserFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The signed-in user (their clients, the selected one). */
  me: MeResponse;
  /** The user to edit; without it the drawer creates one. */
  user?: User | null;
  /** Create only: an access request whose name and email start the form. */
  prefill?: Pick<AccessRequest, 'name' | 'email'> | null;
  /** Create only: after the user exists (marks the access request approved). */
  onCreated?: (user: User) => Promise<unknown>;
};

/**
 * "Novo usuário" / "Editar usuário": the account, the password (on create), the picture and the
 * memberships. The picture is uploaded once the user is saved.
 */
export function UserFormDrawer({
  opened,
  onClose,
  me,
  user = null,
  prefill,
  onCreated,
}: UserFormDrawerProps) {
  const { t } = useTranslation('users');
  const create = useCreateUser();
  const update = useUpdateUser();
  const upload = useUploadAvatar();

  async function submit(values: UserFormOutput) {
    if (values.mode === 'update') {
      await update.mutateAsync(values.user);
      // A refused picture keeps the drawer open with the reason under it; saving again is safe.
      if (values.avatar) await upload.mutateAsync({ id: values.user.id, file: values.avatar });
      return;
    }
    const answer = await create.mutateAsync(values.user);
    // The user exists now: whatever follows must not keep the drawer open for a second create.
    if (values.avatar) {
      try {
        await upload.mutateAsync({ id: answer.data.users_id, file: values.avatar });
      } catch (error) {
        // Other failures already raised the client's popup; a 400 is silent there.
        if (isApiError(error) && error.status === 400) showErrorToast(error);
      }
    }
    await onCreated?.(answer.data).catch(() => undefined);
  }

  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={user ? t('form.editTitle') : t('form.createTitle')}
      submitLabel={user ? undefined : t('form.create')}
      resolver={userFormResolver(user)}
      defaultValues={userFormDefaults(user, {
        selectedClientId: me.rota_clients_id_selected,
        prefill,
      })}
      fields={isUserFormField}
      onSubmit={submit}
    >
      {(form) => <UserFormInputs form={form} me={me} target={user} />}
    </FormDrawer>
  );
}
