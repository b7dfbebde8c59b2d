import type { ReactNode } from 'react';
import { Button } from '@mantine/core';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { RowAction } from './data-table';

type ActionOptions<T> = Pick<RowAction<T>, 'hidden' | 'disabled' | 'onClick'>;

/** The edit and delete row actions every list offers, labelled and drawn the same everywhere. */
export function useStandardRowActions() {
  const { t } = useTranslation();
  return {
    edit: <T,>(options: ActionOptions<T>): RowAction<T> => ({
      key: 'edit',
      label: t('common.actions.edit'),
      icon: <IconEdit size={16} aria-hidden />,
      ...options,
    }),
    remove: <T,>(options: ActionOptions<T>): RowAction<T> => ({
      key: 'delete',
      label: t('common.actions.delete'),
      icon: <IconTrash size={16} aria-hidden />,
      color: 'red',
      ...options,
    }),
  };
}

/** A page header's primary action ("Novo robô"). */
export function CreateButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={onClick}>
      {children}
    </Button>
  );
}
