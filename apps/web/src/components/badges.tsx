import { Badge, type BadgeProps, type MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type StatusBadgeProps<S extends string> = {
  status: S;
  /** Colour of each status (the status items will provide them for executions). */
  colors: Record<S, MantineColor>;
  /** Text of each status, already translated. */
  labels: Record<S, string>;
} & Omit<BadgeProps, 'color' | 'children'>;

/** A status as a coloured badge; the text, not the colour alone, carries the meaning. */
export function StatusBadge<S extends string>({
  status,
  colors,
  labels,
  ...props
}: StatusBadgeProps<S>) {
  return (
    // max-content: a narrow table column must not cut the status to "Pende…".
    <Badge
      variant="light"
      color={colors[status]}
      radius="sm"
      tt="none"
      miw="max-content"
      {...props}
    >
      {labels[status]}
    </Badge>
  );
}

type BooleanBadgeProps = {
  value: boolean;
  /** Texts for true and false; "Sim"/"Não" ("Yes"/"No") by default. */
  trueLabel?: string;
  falseLabel?: string;
  trueColor?: MantineColor;
  falseColor?: MantineColor;
} & Omit<BadgeProps, 'color' | 'children'>;

/** Active/inactive, required/optional…: green for true, grey for false unless told otherwise. */
export function BooleanBadge({
  value,
  trueLabel,
  falseLabel,
  trueColor = 'teal',
  falseColor = 'gray',
  ...props
}: BooleanBadgeProps) {
  const { t } = useTranslation();
  return (
    <Badge
      variant="light"
      color={value ? trueColor : falseColor}
      radius="sm"
      tt="none"
      miw="max-content"
      {...props}
    >
      {value ? (trueLabel ?? t('common.boolean.yes')) : (falseLabel ?? t('common.boolean.no'))}
    </Badge>
  );
}
