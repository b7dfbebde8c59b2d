import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, type MantineColor } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { mfaCodeBodySchema, type MfaCodeBody } from '@rota/contract';
import { applyFieldErrors, fieldError } from '../../../lib/form-errors';
import { errorText } from '../../../lib/http';
import { useMfaTranslation } from '../i18n';
import { CodeField } from './code-field';

type CodeConfirmModalProps = {
  opened: boolean;
  onClose: () => void;
  title: string;
  description: string;
  confirmLabel: string;
  confirmColor?: MantineColor;
  /** Runs with the code; the modal closes when it resolves, a wrong code shows under the input. */
  onConfirm: (code: string) => Promise<unknown>;
};

function CodeConfirmBody({
  onClose,
  description,
  confirmLabel,
  confirmColor,
  onConfirm,
}: Omit<CodeConfirmModalProps, 'opened' | 'title'>) {
  const t = useMfaTranslation();
  const { t: tc } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<MfaCodeBody>({
    resolver: zodResolver(mfaCodeBodySchema),
    defaultValues: { code: '' },
  });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: MfaCodeBody) {
    setFailure(null);
    try {
      await onConfirm(values.code);
      onClose();
    } catch (error) {
      if (!applyFieldErrors(error, ['code'], form.setError)) setFailure(errorText(error));
    }
  }

  return (
    <form noValidate onSubmit={(event) => void form.handleSubmit(onSubmit)(event)}>
      <Stack gap="md">
        <Text size="sm">{description}</Text>
        {failure ? (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        ) : null}
        <CodeField
          label={t('status.currentCode')}
          description={t('status.currentCodeHint')}
          data-autofocus
          error={fieldError(errors.code)}
          {...form.register('code')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={isSubmitting}>
            {tc('common.actions.cancel')}
          </Button>
          <Button type="submit" color={confirmColor} loading={isSubmitting}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** An action on the factor itself (new recovery codes, turning it off) asks for a current code. */
export function CodeConfirmModal({ opened, onClose, title, ...rest }: CodeConfirmModalProps) {
  const { t: tc } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      centered
      closeButtonProps={{ 'aria-label': tc('common.actions.close') }}
    >
      {/* Mounted only while open, so each opening starts with an empty code. */}
      {opened ? <CodeConfirmBody onClose={onClose} {...rest} /> : null}
    </Modal>
  );
}
