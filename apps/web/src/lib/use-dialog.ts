import { useState } from 'react';

/**
 * Open/close state of a drawer or modal that acts on something (the robot to edit, the task to
 * delete). Closing keeps the target, so the title does not change while the dialog slides out.
 *
 *   const remove = useDialog<Robot>();
 *   remove.open(robot) … <ConfirmDelete opened={remove.opened} onClose={remove.close}
 *     title={t('delete.title', { name: remove.target?.name })} … />
 */
export function useDialog<T>() {
  const [state, setState] = useState<{ opened: boolean; target: T | null }>({
    opened: false,
    target: null,
  });
  return {
    opened: state.opened,
    target: state.target,
    open: (target: T) => setState({ opened: true, target }),
    close: () => setState((previous) => ({ ...previous, opened: false })),
  };
}
