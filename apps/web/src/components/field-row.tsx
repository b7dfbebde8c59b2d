import type { ReactNode } from 'react';
import classes from './field-row.module.css';

type FieldRowProps = {
  children: ReactNode;
  /** Equal columns from `xs` up (default 2)… */
  cols?: number;
  /** …or a grid-template-columns of its own, e.g. `1fr 8rem` for a host and its port. */
  template?: string;
};

/**
 * Form inputs side by side whose inputs share one top line even when one has a description or
 * an error; on a phone they stack at full width. Children are Mantine inputs (or anything with
 * a label, description, control and error as direct children).
 */
export function FieldRow({ children, cols = 2, template }: FieldRowProps) {
  const columns = template ?? `repeat(${cols}, minmax(0, 1fr))`;
  return (
    <div className={classes.row} style={{ ['--field-row-template' as string]: columns }}>
      {children}
    </div>
  );
}
