import { Badge, Button, Code, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDatabase, IconPlugConnected } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TIMINGS, type Environment } from '@rota/contract';
import { ConfirmDelete } from '../../../components/confirm-dialog';
import {
  CreateButton,
  DataTable,
  type DataTableColumn,
  type RowAction,
  useStandardRowActions,
} from '../../../components/data-table';
import { DateTimeText } from '../../../components/date-time';
import { PageHeader } from '../../../components/page-header';
import { useFormat } from '../../../lib/format';
import { isApiError } from '../../../lib/http';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useCan } from '../../auth';
import { useDeleteEnvironment } from '../api/delete-environment';
import { ENVIRONMENT_SORTS, environmentsQueryOptions } from '../api/list-environments';
import { useTestEnvironment } from '../api/test-environment';
import { EnvironmentFormDrawer } from '../components/environment-form-drawer';
import { useEnvironmentsTranslation } from '../i18n';

/** `user@host:port/database`, as much of it as is set. */
function connectionText(environment: Environment): string | null {
  if (!environment.db_url) return null;
  const user = environment.db_user ? `${environment.db_user}@` : '';
  const port = environment.db_port ? `:${environment.db_port}` : '';
  const database = environment.db_name ? `/${environment.db_name}` : '';
  return `${user}${environment.db_url}${port}${database}`;
}

/** `/env`: the client's environments; "Novo ambiente" in the header. */
export default function EnvironmentsPage() {
  const t = useEnvironmentsTranslation();
  const { t: tc } = useTranslation();
  const can = useCan();
  const format = useFormat();
  const list = useListState({
    sorts: ENVIRONMENT_SORTS,
    defaultSort: 'title',
    defaultOrder: 'asc',
  });
  const query = useQuery(environmentsQueryOptions(list.query));
  // The drawer's target: an environment to edit, or null to create one.
  const drawer = useDialog<Environment | null>();
  const remove = useDialog<Environment>();
  const deleteEnvironment = useDeleteEnvironment();
  const testEnvironment = useTestEnvironment();
  const canCreate = can('USUARIOS.CREATE');
  // A test the server refused until the password is typed again (the target changed).
  const [retype, setRetype] = useState<{ environment: Environment; reason: string } | null>(null);
  const [typedPassword, setTypedPassword] = useState('');

  async function runTest(environment: Environment, dbPass?: string) {
    const id = `environment-test-${environment.rota_environments_id}`;
    notifications.show({
      id,
      loading: true,
      title: t('actions.test'),
      message: t('test.running', { title: environment.title }),
      autoClose: false,
      withCloseButton: false,
    });
    try {
      const result = await testEnvironment.mutateAsync({
        id: environment.rota_environments_id,
        dbPass,
      });
      notifications.update({
        id,
        loading: false,
        color: result.ok ? 'teal' : 'red',
        title: `${result.ok ? t('test.okTitle') : t('test.failedTitle')}: ${environment.title}`,
        message: t('test.duration', {
          message: result.message,
          duration: format.duration(result.duration_ms),
        }),
        autoClose: result.ok ? TIMINGS.successPopupMs : TIMINGS.errorPopupMs,
        withCloseButton: true,
      });
    } catch (error) {
      const issue = isApiError(error) && error.status === 400 ? error.errors[0] : undefined;
      if (issue?.field === 'db_pass') {
        notifications.hide(id);
        setTypedPassword('');
        setRetype({ environment, reason: issue.message });
      } else if (issue) {
        // A refused address (link-local, cloud metadata): said in the popup itself.
        notifications.update({
          id,
          loading: false,
          color: 'red',
          title: `${t('test.failedTitle')}: ${environment.title}`,
          message: issue.message,
          autoClose: TIMINGS.errorPopupMs,
          withCloseButton: true,
        });
      } else {
        // The API client already said why (403, 404, 429…) in its own popup.
        notifications.hide(id);
      }
    }
  }

  const secretBadge = (set: boolean, label: string) => (
    <Badge variant="light" color={set ? 'teal' : 'gray'} radius="sm" tt="none" miw="max-content">
      {label}
    </Badge>
  );

  const columns: DataTableColumn<Environment>[] = [
    {
      key: 'title',
      header: t('columns.title'),
      sort: 'title',
      render: (environment) => (
        <Stack gap={0} miw={0}>
          <Text size="sm" fw={600}>
            {environment.title}
          </Text>
          {environment.rota_api_url ? (
            <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {environment.rota_api_url}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'database',
      header: t('columns.database'),
      render: (environment) => {
        const text = connectionText(environment);
        return text ? (
          <Code style={{ overflowWrap: 'anywhere' }}>{text}</Code>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        );
      },
    },
    {
      key: 'secrets',
      header: t('columns.secrets'),
      visibleFrom: 'sm',
      render: (environment) => {
        // The state agrees with the secret's noun in Portuguese: "Senha definida", "Token definido".
        const state = (set: boolean, context: 'db_pass' | 'rota_token') =>
          set ? t('secret.set', { context }) : t('secret.notSet', { context });
        return (
          <Group gap={6} wrap="wrap">
            {secretBadge(
              environment.has_db_pass,
              t('secret.dbPass', { state: state(environment.has_db_pass, 'db_pass') }),
            )}
            {secretBadge(
              environment.has_rota_token,
              t('secret.rotaToken', { state: state(environment.has_rota_token, 'rota_token') }),
            )}
          </Group>
        );
      },
    },
    {
      key: 'created_at',
      header: t('columns.created'),
      sort: 'created_at',
      visibleFrom: 'md',
      render: (environment) => <DateTimeText value={environment.created_at} />,
    },
  ];

  const actions = useStandardRowActions();
  const canUpdate = can('USUARIOS.UPDATE');
  const rowActions: RowAction<Environment>[] = [
    {
      key: 'test',
      label: t('actions.test'),
      icon: <IconPlugConnected size={16} aria-hidden />,
      hidden: !canUpdate,
      onClick: (environment) => void runTest(environment),
    },
    actions.edit({ hidden: !canUpdate, onClick: (environment) => drawer.open(environment) }),
    actions.remove({
      hidden: !can('USUARIOS.DELETE'),
      onClick: (environment) => remove.open(environment),
    }),
  ];

  const newEnvironment = canCreate ? (
    <CreateButton onClick={() => drawer.open(null)}>{t('list.new')}</CreateButton>
  ) : null;

  return (
    <>
      <PageHeader
        title={tc('pages.env.title')}
        subtitle={tc('pages.env.subtitle')}
        actions={newEnvironment}
      />
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(environment) => environment.rota_environments_id}
        rowLabel={(environment) => environment.title}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        empty={{
          title: t('list.emptyTitle'),
          description: canCreate ? t('list.emptyDescription') : t('list.emptyDescriptionReadOnly'),
          action: newEnvironment,
          icon: <IconDatabase size={28} aria-hidden />,
        }}
        rowActions={rowActions}
      />
      <EnvironmentFormDrawer
        opened={drawer.opened}
        onClose={drawer.close}
        environment={drawer.target}
      />
      <Modal
        opened={retype !== null}
        onClose={() => setRetype(null)}
        title={t('retype.title', { title: retype?.environment.title ?? '' })}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!retype) return;
            const { environment } = retype;
            setRetype(null);
            void runTest(environment, typedPassword);
          }}
        >
          <Stack>
            <Text size="sm">{retype?.reason}</Text>
            <PasswordInput
              label={t('form.dbPass')}
              description={t('retype.hint')}
              value={typedPassword}
              onChange={(event) => setTypedPassword(event.currentTarget.value)}
              autoComplete="off"
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setRetype(null)}>
                {tc('common.actions.cancel')}
              </Button>
              <Button type="submit">{t('actions.test')}</Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('delete.title', { name: remove.target?.title ?? '' })}
        description={t('delete.description')}
        onConfirm={() =>
          remove.target && deleteEnvironment.mutateAsync(remove.target.rota_environments_id)
        }
      />
    </>
  );
}
