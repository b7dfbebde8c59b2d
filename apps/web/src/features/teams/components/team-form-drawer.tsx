import { Textarea, TextInput } from '@mantine/core';
import { Controller, type FieldError } from 'react-hook-form';
import { teamCreateSchema, teamUpdateSchema, type Team } from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { fieldError } from '../../../lib/form-errors';
import { formSchema, type FormValues } from '../../../lib/form-schema';
import { useCan } from '../../auth';
import { robotsQueryOptions } from '../../robots';
import { useCreateTeam } from '../api/create-team';
import type { MemberChoice, TeamMembers } from '../api/get-team-members';
import { userNamesQueryOptions } from '../api/list-user-names';
import { useUpdateTeam } from '../api/update-team';
import { useTeamsTranslation } from '../i18n';
import { MemberMultiSelect } from './member-multi-select';

/**
 * What the inputs edit, in both forms: the schema's input, with the members as the selects hold
 * them (the schema takes anything it can read as an id).
 */
type TeamInputs = FormValues<typeof teamCreateSchema, { robots: number[]; users: number[] }>;

function TeamFormInputs<TOutput>({
  form,
  members,
}: {
  form: FormDrawerForm<TeamInputs, TOutput>;
  members: TeamMembers;
}) {
  const t = useTeamsTranslation();
  const can = useCan();
  const { errors } = form.formState;
  // Without ROBOS.LIST the robots index answers 403: the robots already in the team stay
  // visible (their names come from the team) and can be taken out, none can be searched.
  const canListRobots = can('ROBOS.LIST');
  const arrayError = (error: unknown) => fieldError(error as FieldError | undefined);

  return (
    <>
      <TextInput
        label={t('form.name')}
        withAsterisk
        data-autofocus
        error={fieldError(errors.name)}
        {...form.register('name')}
      />
      <Textarea
        label={t('form.description')}
        autosize
        minRows={2}
        maxRows={6}
        error={fieldError(errors.description)}
        {...form.register('description')}
      />
      <Controller
        control={form.control}
        name="robots"
        render={({ field }) => (
          <MemberMultiSelect
            label={t('form.robots')}
            description={canListRobots ? t('form.robotsHint') : t('form.robotsNotListed')}
            placeholder={field.value.length === 0 ? t('form.robotsPlaceholder') : undefined}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            name={field.name}
            known={members.robots}
            clearable
            optionsQuery={
              canListRobots
                ? (search) =>
                    robotsQueryOptions({
                      page: 1,
                      per_page: 50,
                      sort: 'name',
                      order: 'asc',
                      ...(search ? { search } : {}),
                    })
                : null
            }
            toChoices={(page) =>
              page.data.map((robot): MemberChoice => ({
                id: robot.rota_robots_id,
                label: robot.name,
              }))
            }
            error={arrayError(errors.robots)}
          />
        )}
      />
      <Controller
        control={form.control}
        name="users"
        render={({ field }) => (
          <MemberMultiSelect
            label={t('form.users')}
            description={t('form.usersHint')}
            placeholder={field.value.length === 0 ? t('form.usersPlaceholder') : undefined}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            name={field.name}
            known={members.users}
            clearable
            optionsQuery={userNamesQueryOptions}
            toChoices={(answer) =>
              answer.data.map((user): MemberChoice => ({
                id: user.users_id,
                label: `${user.name} ${user.last_name}`.trim(),
              }))
            }
            error={arrayError(errors.users)}
          />
        )}
      />
    </>
  );
}

const NO_MEMBERS: TeamMembers = { robots: [], users: [] };

type TeamFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The team to edit, with its members; without it the drawer creates one. */
  team?: { team: Team; members: TeamMembers } | null;
};

/**
 * "Nova equipe" / "Editar equipe": teamCreateSchema or teamUpdateSchema. The robots and users go
 * with the team; on update the whole sets are sent and replace the team's.
 */
export function TeamFormDrawer({ opened, onClose, team }: TeamFormDrawerProps) {
  const t = useTeamsTranslation();
  const create = useCreateTeam();
  const update = useUpdateTeam();

  if (team) {
    const { team: edited, members } = team;
    return (
      <FormDrawer
        opened={opened}
        onClose={onClose}
        title={t('form.editTitle')}
        schema={formSchema(teamUpdateSchema, (values: TeamInputs) => ({
          id: edited.teams_id,
          ...values,
        }))}
        defaultValues={{
          name: edited.name,
          description: edited.description ?? '',
          robots: members.robots.map((r) => r.id),
          users: members.users.map((u) => u.id),
        }}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => <TeamFormInputs form={form} members={members} />}
      </FormDrawer>
    );
  }
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      submitLabel={t('form.create')}
      schema={formSchema(teamCreateSchema, (values: TeamInputs) => values)}
      defaultValues={{ name: '', description: '', robots: [], users: [] }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => <TeamFormInputs form={form} members={NO_MEMBERS} />}
    </FormDrawer>
  );
}
