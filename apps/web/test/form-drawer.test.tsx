import { TextInput } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { robotCreateSchema } from '@rota/contract';
import { ConfirmDelete } from '../src/components/confirm-dialog';
import { FormDrawer } from '../src/components/form-drawer';
import { fieldError } from '../src/lib/form-errors';
import { api } from '../src/lib/http';
import { setToken } from '../src/lib/session';
import { mockFetch } from './http-mock';
import { renderElement, resetEnvironment } from './render';

function RobotDrawer({ onSaved }: { onSaved?: () => void }) {
  const [opened, setOpened] = useState(true);
  return (
    <>
      <p>{opened ? 'aberto' : 'fechado'}</p>
      <FormDrawer
        opened={opened}
        onClose={() => setOpened(false)}
        title="Novo robô"
        schema={robotCreateSchema}
        defaultValues={{ name: '', executor: '', active: true }}
        onSubmit={async (values) => {
          await api.post('/rota/robot/api/v1/create', values);
          onSaved?.();
        }}
      >
        {(form) => (
          <>
            <TextInput
              label="Nome do processo"
              error={fieldError(form.formState.errors.name)}
              {...form.register('name')}
            />
            <TextInput
              label="Executor"
              error={fieldError(form.formState.errors.executor)}
              {...form.register('executor')}
            />
          </>
        )}
      </FormDrawer>
    </>
  );
}

beforeEach(async () => {
  await resetEnvironment('pt');
  setToken('token');
});

describe('FormDrawer', () => {
  it('is a dialog named by its title that validates with the contract schema', async () => {
    const { calls } = mockFetch(() => ({ status: 500 }));
    const { user } = renderElement(<RobotDrawer />);
    const dialog = await screen.findByRole('dialog', { name: 'Novo robô' });
    expect(dialog).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Nome do processo obrigatório')).toBeInTheDocument();
    expect(screen.getByText('Executor obrigatório')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('shows the server’s field errors under each field and stays open', async () => {
    mockFetch(() => ({
      status: 400,
      body: {
        code: 'invalid_input',
        message: 'Alguns campos não são válidos',
        errors: [{ field: 'executor', message: 'O executor não pode ser usado' }],
      },
    }));
    const { user } = renderElement(<RobotDrawer />);
    await user.type(await screen.findByLabelText('Nome do processo'), 'Faturas');
    await user.type(screen.getByLabelText('Executor'), 'rm -rf /');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('O executor não pode ser usado')).toBeInTheDocument();
    expect(screen.getByLabelText('Executor')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('aberto')).toBeInTheDocument();
  });

  it('puts a 409’s field error (a duplicate name) under its field too', async () => {
    mockFetch(() => ({
      status: 409,
      body: {
        code: 'conflict',
        message: 'Este registro conflita com um existente',
        errors: [{ field: 'name', message: 'Já existe um robô com este nome' }],
      },
    }));
    const { user } = renderElement(<RobotDrawer />);
    await user.type(await screen.findByLabelText('Nome do processo'), 'Faturas');
    await user.type(screen.getByLabelText('Executor'), 'python main.py');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Já existe um robô com este nome')).toBeInTheDocument();
  });

  it('disables submit while saving and closes on success', async () => {
    let answer: (reply: { status: number; body: unknown }) => void = () => {};
    const { calls } = mockFetch(() => new Promise((resolve) => (answer = resolve)));
    const onSaved = vi.fn();
    const { user } = renderElement(<RobotDrawer onSaved={onSaved} />);
    await user.type(await screen.findByLabelText('Nome do processo'), 'Faturas');
    await user.type(screen.getByLabelText('Executor'), 'python main.py');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.body).toEqual({
      name: 'Faturas',
      executor: 'python main.py',
      description: null,
      remote_root: null,
      active: true,
      // The robot form's task settings: retries default to none; SLA minutes unset.
      task_retries: 0,
      // Its stall settings: flag by default; no stall minutes, so never flagged.
      stall_action: 'flag',
      // No labels needed: any agent of its VMs may run it.
      required_labels: [],
    });
    expect(screen.getByRole('button', { name: 'Salvar' })).toBeDisabled();
    answer({ status: 201, body: { message: 'Criado!', data: {} } });
    await waitFor(() => expect(screen.getByText('fechado')).toBeInTheDocument());
    expect(onSaved).toHaveBeenCalledTimes(1);
  });
});

describe('ConfirmDelete', () => {
  function Harness({ onConfirm }: { onConfirm: () => unknown }) {
    const [opened, setOpened] = useState(true);
    return (
      <>
        <p>{opened ? 'aberto' : 'fechado'}</p>
        <ConfirmDelete
          opened={opened}
          onClose={() => setOpened(false)}
          title="Excluir o robô “Faturas”?"
          onConfirm={onConfirm}
        />
      </>
    );
  }

  it('names the thing, and deletes on confirm', async () => {
    const onConfirm = vi.fn(() => Promise.resolve());
    const { user } = renderElement(<Harness onConfirm={onConfirm} />);
    const dialog = await screen.findByRole('dialog', { name: 'Excluir o robô “Faturas”?' });
    expect(dialog).toHaveTextContent('Esta ação não pode ser desfeita.');
    await user.click(screen.getByRole('button', { name: 'Excluir' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.getByText('fechado')).toBeInTheDocument());
  });

  it('cancels without deleting', async () => {
    const onConfirm = vi.fn();
    const { user } = renderElement(<Harness onConfirm={onConfirm} />);
    await user.click(await screen.findByRole('button', { name: 'Cancelar' }));
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.getByText('fechado')).toBeInTheDocument();
  });

  it('says why the delete failed (409 robot_in_use) and stays open', async () => {
    mockFetch(() => ({
      status: 409,
      body: {
        code: 'conflict',
        message: 'Este registro conflita com um existente',
        errors: [{ field: 'id', message: 'O robô tem agendamentos; exclua-os antes' }],
      },
    }));
    const { user } = renderElement(
      <Harness onConfirm={() => api.post('/rota/robot/api/v1/delete', { id: 1 })} />,
    );
    await user.click(await screen.findByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('O robô tem agendamentos; exclua-os antes')).toBeInTheDocument();
    expect(screen.getByText('aberto')).toBeInTheDocument();
  });

  it('asks in English too', async () => {
    await resetEnvironment('en');
    const { user } = renderElement(<Harness onConfirm={() => {}} />);
    expect(await screen.findByText('This cannot be undone.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
  });
});
