import {
  Button,
  Group,
  MultiSelect,
  SegmentedControl,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconKey } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import {
  ALERT_CHANNEL_TYPES,
  alertCreateSchema,
  alertUpdateSchema,
  msg,
  type Alert,
  type AlertChannelInput,
  type AlertChannelType,
  type Language,
} from '@rota/contract';
import { FormDrawer, type FormDrawerForm } from '../../../components/form-drawer';
import { MONOSPACE_INPUT } from '../../../components/monospace-input';
import { SwitchField } from '../../../components/switch-field';
import { fieldError, listFieldError } from '../../../lib/form-errors';
import { useFormat } from '../../../lib/format';
import { formSchema, type FormValues } from '../../../lib/form-schema';
import { localizeMessage } from '../../../lib/i18n';
import { robotsQueryOptions } from '../../robots';
import { useCreateAlert } from '../api/create-alert';
import { useUpdateAlert } from '../api/update-alert';
import { useAlertsTranslation } from '../i18n';
import { EVENT_GROUPS, useEventLabel } from './event-labels';

/**
 * Every channel's inputs at once, so switching the type back does not lose what was typed. The
 * chat URL is its own input: a webhook's address must not slip into a Slack or Teams channel.
 */
type ChannelInputs = {
  type: AlertChannelType;
  to: string[];
  url: string;
  secret: string;
  chat_url: string;
};

type AlertInputs = FormValues<
  typeof alertCreateSchema,
  { channel: ChannelInputs; rota_robots_ids: number[]; language: Language; active: boolean }
>;

/** The stored rule a form edits: what decides whether a blank secret or URL keeps the old one. */
type Stored = { type: AlertChannelType } | null;

/** A webhook secret the "generate" button offers: 32 random bytes in hex. */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A secret or a chat URL left blank on edit keeps the stored one, if the type is unchanged. */
function keeps(stored: Stored, type: AlertChannelType): boolean {
  return stored?.type === type;
}

function channelBody(channel: ChannelInputs, stored: Stored): AlertChannelInput {
  const url = channel.url.trim();
  const chatUrl = channel.chat_url.trim();
  switch (channel.type) {
    case 'email':
      return { type: 'email', to: channel.to };
    case 'webhook':
      return {
        type: 'webhook',
        url,
        ...(channel.secret || !keeps(stored, 'webhook') ? { secret: channel.secret } : {}),
      };
    case 'slack':
    case 'teams':
      return {
        type: channel.type,
        ...(chatUrl || !keeps(stored, channel.type) ? { url: chatUrl } : {}),
      };
  }
}

function alertBody(values: AlertInputs, stored: Stored) {
  return { ...values, channel: channelBody(values.channel, stored) };
}

/**
 * The contract leaves the secret and a chat URL optional (an update may keep them): a new
 * channel still needs them, and says so under the field before the server would.
 */
function requireNewSecrets<S extends z.ZodType>(schema: S, stored: Stored) {
  return schema.superRefine((body, ctx) => {
    const channel = (body as { channel?: AlertChannelInput }).channel;
    if (!channel || keeps(stored, channel.type)) return;
    if (channel.type === 'webhook' && !channel.secret) {
      ctx.addIssue({
        code: 'custom',
        path: ['channel', 'secret'],
        message: msg('required_secret'),
      });
    }
    if ((channel.type === 'slack' || channel.type === 'teams') && !channel.url) {
      ctx.addIssue({ code: 'custom', path: ['channel', 'url'], message: msg('invalid_url') });
    }
  });
}

const FIELDS = [
  'name',
  'active',
  'events',
  'rota_robots_ids',
  'language',
  'channel',
  'channel.to',
  'channel.url',
  'channel.secret',
] as const;

/** Robots offered: the first 50 by name matching what is typed (the server searches). */
const ROBOTS_BODY = { page: 1, per_page: 50, sort: 'name', order: 'asc' } as const;

function ChannelInputsFields<TOutput>({
  form,
  stored,
}: {
  form: FormDrawerForm<AlertInputs, TOutput>;
  stored: Stored;
}) {
  const t = useAlertsTranslation();
  const type = useWatch({ control: form.control, name: 'channel.type' });
  const { errors } = form.formState;
  const channelErrors = errors.channel;
  const keep = keeps(stored, type);

  return (
    <>
      <Controller
        control={form.control}
        name="channel.type"
        render={({ field }) => (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="alert-channel-label">
              {t('form.channel')}
            </Text>
            <SegmentedControl
              aria-labelledby="alert-channel-label"
              fullWidth
              value={field.value}
              onChange={(value) => field.onChange(value as AlertChannelType)}
              data={ALERT_CHANNEL_TYPES.map((value) => ({ value, label: t(`channel.${value}`) }))}
            />
          </Stack>
        )}
      />
      {type === 'email' ? (
        <Controller
          control={form.control}
          name="channel.to"
          render={({ field }) => (
            <TagsInput
              label={t('form.to')}
              description={t('form.toHint')}
              placeholder={t('form.toPlaceholder')}
              withAsterisk
              splitChars={[',', ' ', ';']}
              clearable
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              name={field.name}
              error={listFieldError(channelErrors?.to)}
            />
          )}
        />
      ) : null}
      {type === 'webhook' ? (
        <>
          <TextInput
            label={t('form.url')}
            description={t('form.webhookUrlHint')}
            placeholder="https://"
            withAsterisk
            error={fieldError(channelErrors?.url)}
            {...form.register('channel.url')}
          />
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextInput
              label={t('form.secret')}
              description={keep ? t('form.keepSecret') : t('form.secretHint')}
              withAsterisk={!keep}
              autoComplete="off"
              style={{ flex: 1, minWidth: 0 }}
              styles={MONOSPACE_INPUT}
              error={fieldError(channelErrors?.secret)}
              {...form.register('channel.secret')}
            />
            <Button
              variant="default"
              leftSection={<IconKey size={16} aria-hidden />}
              onClick={() =>
                form.setValue('channel.secret', generateSecret(), {
                  shouldDirty: true,
                  shouldValidate: form.formState.isSubmitted,
                })
              }
              // Level with the input, not with its hint (the error below would shift it too).
              mb={channelErrors?.secret ? 22 : 0}
            >
              {t('form.generate')}
            </Button>
          </Group>
        </>
      ) : null}
      {type === 'slack' || type === 'teams' ? (
        <TextInput
          label={t('form.chatUrl')}
          description={keep ? t('form.keepUrl') : undefined}
          placeholder="https://"
          withAsterisk={!keep}
          autoComplete="off"
          // The contract's (and the server's) `channel.url`, shown under the input it came from.
          error={fieldError(channelErrors?.url)}
          {...form.register('channel.chat_url')}
        />
      ) : null}
      {typeof channelErrors?.message === 'string' ? (
        <Text size="sm" c="red" role="alert">
          {localizeMessage(channelErrors.message)}
        </Text>
      ) : null}
    </>
  );
}

/** The one set of inputs create and edit share. */
function AlertFormInputs<TOutput>({
  form,
  stored,
  namedRobots = [],
}: {
  form: FormDrawerForm<AlertInputs, TOutput>;
  stored: Stored;
  /** The names of the robots the edited rule holds, as the server answered them. */
  namedRobots?: Alert['robots'];
}) {
  const t = useAlertsTranslation();
  const label = useEventLabel();
  const [robotSearch, setRobotSearch] = useState('');
  const [searched] = useDebouncedValue(robotSearch.trim(), 250);
  const robots = useQuery({
    ...robotsQueryOptions({ ...ROBOTS_BODY, ...(searched ? { search: searched } : {}) }),
    placeholderData: keepPreviousData,
  });
  // The names of the robots chosen here, so each keeps its label after the search moves on.
  const [chosenNames, setChosenNames] = useState<Record<string, string>>(() =>
    Object.fromEntries(namedRobots.map((robot) => [String(robot.rota_robots_id), robot.name])),
  );
  const { errors } = form.formState;
  const robotOptions = (robots.data?.data ?? []).map((robot) => ({
    value: String(robot.rota_robots_id),
    label: robot.name,
  }));

  return (
    <>
      <TextInput
        label={t('form.name')}
        withAsterisk
        data-autofocus
        error={fieldError(errors.name)}
        {...form.register('name')}
      />
      <Controller
        control={form.control}
        name="active"
        render={({ field }) => (
          <SwitchField
            label={t('form.active')}
            hint={t('form.activeHint')}
            checked={field.value}
            onChange={(event) => field.onChange(event.currentTarget.checked)}
            onBlur={field.onBlur}
            name={field.name}
          />
        )}
      />
      <Controller
        control={form.control}
        name="events"
        render={({ field }) => (
          <MultiSelect
            label={t('form.events')}
            placeholder={field.value?.length ? undefined : t('form.eventsPlaceholder')}
            withAsterisk
            searchable
            clearable
            data={EVENT_GROUPS.map(({ group, events }) => ({
              group: t(`groups.${group}`),
              items: events.map((value) => ({ value, label: label(value) })),
            }))}
            value={field.value ?? []}
            onChange={field.onChange}
            onBlur={field.onBlur}
            name={field.name}
            error={listFieldError(errors.events)}
          />
        )}
      />
      <Controller
        control={form.control}
        name="rota_robots_ids"
        render={({ field }) => {
          const value = field.value.map(String);
          // A chosen robot outside the current answer still shows: by name once seen, else by id.
          const known = new Set(robotOptions.map((o) => o.value));
          const data = [
            ...robotOptions,
            ...value
              .filter((v) => !known.has(v))
              .map((v) => ({ value: v, label: chosenNames[v] ?? `#${v}` })),
          ];
          return (
            <MultiSelect
              label={t('form.robots')}
              description={t('form.robotsHint')}
              placeholder={value.length ? undefined : t('form.robotsPlaceholder')}
              searchable
              searchValue={robotSearch}
              onSearchChange={setRobotSearch}
              clearable
              data={data}
              value={value}
              onChange={(next) => {
                const labels = new Map(data.map((o) => [o.value, o.label]));
                setChosenNames((names) => ({
                  ...names,
                  ...Object.fromEntries(next.map((v) => [v, labels.get(v) ?? names[v] ?? `#${v}`])),
                }));
                field.onChange(next.map(Number));
              }}
              onBlur={field.onBlur}
              name={field.name}
              error={listFieldError(errors.rota_robots_ids)}
            />
          );
        }}
      />
      <Controller
        control={form.control}
        name="language"
        render={({ field }) => (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="alert-language-label">
              {t('form.language')}
            </Text>
            <SegmentedControl
              aria-labelledby="alert-language-label"
              value={field.value}
              onChange={(value) => field.onChange(value as Language)}
              data={(['pt', 'en'] as const).map((value) => ({
                value,
                label: t(`form.languages.${value}`),
              }))}
            />
          </Stack>
        )}
      />
      <ChannelInputsFields form={form} stored={stored} />
    </>
  );
}

function inputsOf(alert: Alert): AlertInputs {
  const channel = alert.channel;
  return {
    name: alert.name,
    active: alert.active,
    events: alert.events,
    rota_robots_ids: alert.rota_robots_ids,
    language: alert.language,
    channel: {
      type: channel.type,
      to: channel.type === 'email' ? channel.to : [],
      url: channel.type === 'webhook' ? channel.url : '',
      secret: '',
      chat_url: '',
    },
  };
}

type AlertFormDrawerProps = {
  opened: boolean;
  onClose: () => void;
  /** The alert to edit; without it the drawer creates one. */
  alert?: Alert | null;
};

/** "Novo alerta" / "Editar alerta": events, robots, language and the channel with its fields. */
export function AlertFormDrawer({ opened, onClose, alert }: AlertFormDrawerProps) {
  const t = useAlertsTranslation();
  const format = useFormat();
  const create = useCreateAlert();
  const update = useUpdateAlert();

  if (alert) {
    const stored: Stored = { type: alert.channel.type };
    return (
      <FormDrawer
        opened={opened}
        onClose={onClose}
        title={t('form.editTitle')}
        schema={formSchema(requireNewSecrets(alertUpdateSchema, stored), (values: AlertInputs) => ({
          id: alert.rota_alerts_id,
          ...alertBody(values, stored),
        }))}
        fields={FIELDS}
        defaultValues={inputsOf(alert)}
        onSubmit={(values) => update.mutateAsync(values)}
      >
        {(form) => <AlertFormInputs form={form} stored={stored} namedRobots={alert.robots} />}
      </FormDrawer>
    );
  }
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('form.createTitle')}
      submitLabel={t('form.create')}
      schema={formSchema(requireNewSecrets(alertCreateSchema, null), (values: AlertInputs) =>
        alertBody(values, null),
      )}
      fields={FIELDS}
      defaultValues={{
        name: '',
        active: true,
        events: [],
        rota_robots_ids: [],
        language: format.lang,
        channel: { type: 'email', to: [], url: '', secret: '', chat_url: '' },
      }}
      onSubmit={(values) => create.mutateAsync(values)}
    >
      {(form) => <AlertFormInputs form={form} stored={null} />}
    </FormDrawer>
  );
}
