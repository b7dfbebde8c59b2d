import { notifications } from '@mantine/notifications';
import { TIMINGS, type FieldError } from '@rota/contract';
import { i18n, localizeMessage } from './i18n';
import { errorText, isApiError } from './http/api-error';

/** Popups (chosen by the answer's HTTP status) sit top-right; toasts (the helpers below) bottom-left. */
export function showSuccessPopup(message: string): void {
  notifications.show({
    color: 'teal',
    title: i18n.t('http.successTitle'),
    message,
    autoClose: TIMINGS.successPopupMs,
    withCloseButton: true,
  });
}

export function showErrorPopup(
  message: string,
  options: { title?: string; id?: string } = {},
): void {
  notifications.show({
    id: options.id,
    color: 'red',
    title: options.title ?? i18n.t('http.errorTitle'),
    message,
    autoClose: TIMINGS.errorPopupMs,
    withCloseButton: true,
  });
}

/**
 * Error toast: titled by the first field in error (else "Error"), its message (else
 * the whole error text) followed by " !", and it stays until closed (900000 ms).
 */
export function showErrorToast(error: unknown): void {
  const first: FieldError | undefined = isApiError(error) ? error.errors[0] : undefined;
  const description = first ? localizeMessage(first.message) : errorText(error);
  notifications.show({
    color: 'red',
    title: first?.field ?? i18n.t('toast.errorTitle'),
    message: `${description} !`,
    position: 'bottom-left',
    withCloseButton: true,
    autoClose: TIMINGS.errorToastMs,
  });
}

/**
 * Success toast: only when the call answered something (a 204 has nothing to say);
 * its message, else "Saved successfully".
 */
export function showSuccessToast(data: { message?: string } | null | undefined): void {
  if (!data) return;
  notifications.show({
    color: 'teal',
    title: i18n.t('toast.successTitle'),
    message: data.message || i18n.t('toast.savedSuccessfully'),
    position: 'bottom-left',
    withCloseButton: true,
    autoClose: TIMINGS.successToastMs,
  });
}
