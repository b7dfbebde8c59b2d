import { Anchor, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { TIMINGS, type RunResponse } from '@rota/contract';
import { i18n } from '../../../lib/i18n';
import { navigateTo } from '../../../lib/navigation';
import { executionPath } from '../paths';
import '../i18n';

/**
 * Success toast for "run now" (robots and schedulings), with a link to the execution it
 * queued. Notifications render outside the router, so the link navigates through `navigateTo`.
 */
export function showExecutionStartedToast(answer: RunResponse): void {
  const id = answer.data.execution_id;
  const path = executionPath(id);
  const toastId = `execution-started-${id}`;
  notifications.show({
    id: toastId,
    color: 'teal',
    title: i18n.t('toast.successTitle'),
    message: (
      <Stack gap={2}>
        <Text size="sm">{answer.message || i18n.t('activity:started.message', { id })}</Text>
        <Anchor
          href={path}
          size="sm"
          fw={600}
          onClick={(event) => {
            // A new tab (ctrl/cmd/middle click) is the browser's business.
            if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
            event.preventDefault();
            notifications.hide(toastId);
            navigateTo(path);
          }}
        >
          {i18n.t('activity:started.open', { id })}
        </Anchor>
      </Stack>
    ),
    position: 'bottom-left',
    withCloseButton: true,
    autoClose: TIMINGS.successToastMs,
  });
}
