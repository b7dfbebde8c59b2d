import { ColorInput, Group, Input, Select, TextInput } from '@mantine/core';
import { Controller, useWatch } from 'react-hook-form';
import {
  DEFAULT_STATUS_COLORS,
  STATUS_ITEM_CATEGORIES,
  statusItemUpdateSchema,
  type StatusItem,
  type StatusItemCategory,
  type StatusItemUpdate,
} from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { fieldError } from '../../../lib/form-errors';
import { formSchema, type FormValues } from '../../../lib/form-schema';
import { useActivityTranslation } from '../../activity';
import { useUpdateStatusItem } from '../api/update-status-item';
import { useStatusItemsTranslation } from '../i18n';
import { StatusItemBadge } from './status-item-badge';

/** What the inputs edit: every field of the update, each always there (the preview reads them). */
type StatusItemInputs = FormValues<
  typeof statusItemUpdateSchema,
  { id: number; category: StatusItemCategory; label: string; color: string }
>;

/** The defaults first, then a few more of Mantine's palette, all written #rrggbb. */
const SWATCHES = [
  ...new Set([
    ...Object.values(DEFAULT_STATUS_COLORS),
    '#be4bdb',
    '#7950f2',
    '#4c6ef5',
    '#12b886',
    '#82c91e',
    '#e64980',
    '#212529',
  ]),
];

function StatusItemInputs({
  form,
  statusName,
}: {
  form: FormDrawerForm<StatusItemInputs, StatusItemUpdate>;
  statusName: string;
}) {
  const t = useStatusItemsTranslation();
  const { errors } = form.formState;
  const [label, color] = useWatch({ control: form.control, name: ['label', 'color'] });
  return (
    <>
      <Controller
        control={form.control}
        name="category"
        render={({ field }) => (
          <Select
            label={t('form.category')}
            description={t('form.categoryHint')}
            withAsterisk
            data-autofocus
            allowDeselect={false}
            data={STATUS_ITEM_CATEGORIES.map((category) => ({
              value: category,
              label: t(`categories.${category}`),
            }))}
            name={field.name}
            value={field.value}
            onChange={(value) => field.onChange(value)}
            onBlur={field.onBlur}
            error={fieldError(errors.category)}
          />
        )}
      />
      <TextInput
        label={t('form.label')}
        description={t('form.labelHint', { name: statusName })}
        placeholder={statusName}
        error={fieldError(errors.label)}
        {...form.register('label')}
      />
      <Controller
        control={form.control}
        name="color"
        render={({ field }) => (
          <ColorInput
            label={t('form.color')}
            description={t('form.colorHint')}
            withAsterisk
            format="hex"
            swatches={SWATCHES}
            swatchesPerRow={7}
            withEyeDropper={false}
            name={field.name}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={fieldError(errors.color)}
          />
        )}
      />
      <Input.Wrapper label={t('form.preview')} labelElement="div">
        <Group mt={4}>
          <StatusItemBadge
            color={/^#[0-9a-f]{6}$/i.test(color) ? color : 'gray'}
            label={label.trim() || statusName}
          />
        </Group>
      </Input.Wrapper>
    </>
  );
}

type StatusItemFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  item: StatusItem | null;
};

/** "Editar item": category, label and colour of one status (statusItemUpdateSchema). */
export function StatusItemFormDrawer({ opened, onClose, item }: StatusItemFormDrawerProps) {
  const t = useStatusItemsTranslation();
  const ta = useActivityTranslation();
  const update = useUpdateStatusItem();
  if (!item) return null;
  const statusName = ta(`status.${item.status}`);
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('form.editTitle', { status: statusName })}
      schema={formSchema(statusItemUpdateSchema, (values: StatusItemInputs) => values)}
      defaultValues={{
        id: item.rota_status_items_id,
        category: item.category,
        label: item.label ?? '',
        color: item.color,
      }}
      onSubmit={(values) => update.mutateAsync(values)}
    >
      {(form) => <StatusItemInputs form={form} statusName={statusName} />}
    </FormDrawer>
  );
}
