import { notificationsStore } from '@mantine/notifications';
import { beforeEach, describe, expect, it } from 'vitest';
import { TIMINGS } from '@rota/contract';
import { ApiError } from '../src/lib/http';
import { showErrorToast, showSuccessToast } from '../src/lib/notify';
import { resetEnvironment } from './render';

function notices() {
  return notificationsStore.getState().notifications;
}

beforeEach(async () => {
  await resetEnvironment('en');
});

describe('toasts', () => {
  it('error toast: the first field as title, its message and " !", bottom-left, closable', () => {
    showErrorToast(
      new ApiError('Some fields are not valid', {
        status: 400,
        errors: [
          { field: 'name', message: 'Required name' },
          { field: 'email', message: 'Invalid email' },
        ],
      }),
    );
    expect(notices()[0]).toMatchObject({
      title: 'name',
      message: 'Required name !',
      color: 'red',
      position: 'bottom-left',
      withCloseButton: true,
      autoClose: TIMINGS.errorToastMs,
    });
  });

  it('error toast without field errors: "Error" and the whole error text', async () => {
    await resetEnvironment('pt');
    showErrorToast(new ApiError('Você não pertence a este cliente', { status: 403 }));
    expect(notices()[0]).toMatchObject({
      title: 'Erro',
      message: 'Você não pertence a este cliente !',
    });
  });

  it('error toast translates contract message keys', () => {
    showErrorToast(
      new ApiError('x', { status: 400, errors: [{ field: 'access', message: 'required_access' }] }),
    );
    expect(notices()[0]?.message).toBe('Required acess !');
  });

  it('success toast: "Success", the message or "Saved successfully", 9000 ms', () => {
    showSuccessToast({ message: 'Robot saved' });
    showSuccessToast({});
    expect(notices().map((n) => [n.title, n.message, n.autoClose])).toEqual([
      ['Success', 'Robot saved', TIMINGS.successToastMs],
      ['Success', 'Saved successfully', TIMINGS.successToastMs],
    ]);
  });

  it('success toast: nothing when the call answered nothing', () => {
    showSuccessToast(undefined);
    showSuccessToast(null);
    expect(notices()).toHaveLength(0);
  });
});
