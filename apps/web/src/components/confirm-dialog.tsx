import { useState, type ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, type MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorText, isApiError } from '../lib/http';
import { localizeMessage } from '../lib/i18n';

export type ConfirmDialogProps = {
  opened: boolean;
  onClose: () => void;
  /** The question, naming what it acts on: "Excluir o robô “Faturas”?". */
  title: string;
  /** Text under the question. */
  children?: ReactNode;
  confirmLabel: string;
  confirmColor?: MantineColor;
  /**
   * Replaces "Cancelar" on the button that backs out, when the action itself is a cancel
   * ("Cancelar execução" beside "Voltar").
   */
  cancelLabel?: string;
  /** Runs on confirm; the dialog closes when it resolves and shows why when it rejects. */
  onConfirm: () => unknown;
};

/** Why a call failed, in words: its first field error (409 "robot_in_use"…), else its message. */
function reasonOf(error: unknown): string {
  if (isApiError(error) && error.errors[0]) return localizeMessage(error.errors[0].message);
  return errorText(error);
}

function ConfirmBody({
  onClose,
  children,
  confirmLabel,
  confirmColor,
  cancelLabel,
  onConfirm,
}: Omit<ConfirmDialogProps, 'opened' | 'title'>) {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function confirm() {
    setPending(true);
    setFailure(null);
    try {
      await onConfirm();
      onClose();
    } catch (error) {
      setFailure(reasonOf(error));
    } finally {
      setPending(false);
    }
  }

  return (
    <Stack gap="md">
      {children ? <Text size="sm">{children}</Text> : null}
      {failure ? (
        <Alert color="red" variant="light" title={t('common.confirm.errorTitle')}>
          {failure}
        </Alert>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={pending}>
          {cancelLabel ?? t('common.actions.cancel')}
        </Button>
        <Button
          color={confirmColor}
          loading={pending}
          onClick={() => void confirm()}
          data-autofocus
        >
          {confirmLabel}
        </Button>
      </Group>
    </Stack>
  );
}

/** A question before an action that cannot be taken back. */
export function ConfirmDialog({ opened, onClose, title, ...rest }: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered size="md">
      {/* Mounted per opening, so a previous failure does not linger. */}
      {opened ? <ConfirmBody onClose={onClose} {...rest} /> : null}
    </Modal>
  );
}

export type ConfirmDeleteProps = Omit<
  ConfirmDialogProps,
  'confirmLabel' | 'confirmColor' | 'children'
> & {
  /** Replaces "Esta ação não pode ser desfeita." */
  description?: ReactNode;
  /** Replaces "Excluir". */
  confirmLabel?: string;
};

/**
 * Delete confirmation that names the thing: pass the feature's question as `title`
 * (`t('robots:delete.title', { name })` → "Excluir o robô “Faturas”?").
 */
export function ConfirmDelete({ description, confirmLabel, ...props }: ConfirmDeleteProps) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      {...props}
      confirmColor="red"
      confirmLabel={confirmLabel ?? t('common.actions.delete')}
    >
      {description ?? t('common.confirm.irreversible')}
    </ConfirmDialog>
  );
}
