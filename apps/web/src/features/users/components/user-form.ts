import { get, set, type FieldErrors, type Resolver } from 'react-hook-form';
import {
  AVATAR_MAX_BYTES,
  AVATAR_MEDIA_TYPES,
  userCreateSchema,
  userUpdateSchema,
  type AccessRequest,
  type MessageKey,
  type User,
  type UserCreate,
  type UserUpdate,
} from '@rota/contract';
import type { FormValues } from '../../../lib/form-schema';

/** One row of the memberships editor; empty until a client and a profile are chosen. */
export type MembershipRow = { rota_clients_id: number | null; profiles_id: number | null };

/**
 * What the user form's inputs hold; the resolver turns it into a create or an update body. The
 * contract's fields are named by the create schema (FormValues), so a rename fails to compile.
 */
export type UserFormValues = FormValues<
  typeof userCreateSchema,
  {
    name: string;
    last_name: string;
    email: string;
    access: string;
    group: string;
    sector: string;
    work: string;
    role: string;
    /** Create only. */
    password: string;
    password_change_required: boolean;
    clients: MembershipRow[];
  }
> & {
  confirm_password: string;
  /** A new picture to upload after the save. */
  avatar: File | null;
  /** Edit only: drop the current picture (`avatar: null` in the update). */
  remove_avatar: boolean;
};

export type UserFormOutput =
  | { mode: 'create'; user: UserCreate; avatar: File | null }
  | { mode: 'update'; user: UserUpdate; avatar: File | null };

/** Fields the server's 400/409 answers may name, shown under their inputs. */
const SERVER_FIELDS = new Set([
  'name',
  'last_name',
  'email',
  'access',
  'group',
  'sector',
  'work',
  'role',
  'password',
  'password_change_required',
  'clients',
  'avatar',
]);
export const isUserFormField = (name: string) =>
  SERVER_FIELDS.has(name) || /^clients\.\d+\.(rota_clients_id|profiles_id)$/.test(name);

/** The picture rules the server applies, checked before anything is sent. */
export function avatarIssue(file: File): MessageKey | null {
  if (!(AVATAR_MEDIA_TYPES as readonly string[]).includes(file.type)) return 'avatar_format';
  if (file.size > AVATAR_MAX_BYTES) return 'avatar_too_large';
  return null;
}

/** A suggested access identifier from an email: its local part, as `accessSchema` allows. */
export function accessFromEmail(email: string): string {
  const local = email.split('@')[0] ?? '';
  const access = local
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9._-]+/g, '.')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, 50);
  return access.length >= 3 ? access : '';
}

type Prefill = Pick<AccessRequest, 'name' | 'email'>;

/** Starting values: the user to edit, an access request to turn into a user, or blank. */
export function userFormDefaults(
  target: User | null,
  options: { selectedClientId: number | null; prefill?: Prefill | null },
): UserFormValues {
  if (target) {
    return {
      name: target.name,
      last_name: target.last_name,
      email: target.email,
      access: target.access,
      group: target.group ?? '',
      sector: target.sector ?? '',
      work: target.work ?? '',
      role: target.role ?? '',
      password: '',
      confirm_password: '',
      password_change_required: target.password_change_required,
      clients: target.clients.map((m) => ({
        rota_clients_id: m.rota_clients_id,
        profiles_id: m.profiles_id,
      })),
      avatar: null,
      remove_avatar: false,
    };
  }
  const [first = '', ...rest] = (options.prefill?.name ?? '').trim().split(/\s+/);
  const email = options.prefill?.email ?? '';
  return {
    name: first,
    last_name: rest.join(' '),
    email,
    access: email ? accessFromEmail(email) : '',
    group: '',
    sector: '',
    work: '',
    role: '',
    password: '',
    confirm_password: '',
    password_change_required: true,
    clients: [{ rota_clients_id: options.selectedClientId, profiles_id: null }],
    avatar: null,
    remove_avatar: false,
  };
}

function sameMemberships(rows: readonly MembershipRow[], user: User): boolean {
  const key = (c: number | null, p: number | null) => `${c}:${p}`;
  const now = rows.map((r) => key(r.rota_clients_id, r.profiles_id)).sort();
  const before = user.clients.map((m) => key(m.rota_clients_id, m.profiles_id)).sort();
  return now.length === before.length && now.every((value, i) => value === before[i]);
}

/**
 * Validates with the contract's userCreateSchema / userUpdateSchema (the server's own rules and
 * messages), plus what only the form has: an empty client or profile in a row, the password
 * confirmation, and the picture's type and size.
 */
export function userFormResolver(
  target: User | null,
): Resolver<UserFormValues, unknown, UserFormOutput> {
  return (values) => {
    const errors: FieldErrors<UserFormValues> = {};
    // The first message found for a field wins: the form's own checks come first.
    const add = (path: string, message: string) => {
      if (!get(errors, path)) set(errors, path, { type: 'validate', message });
    };

    values.clients.forEach((row, i) => {
      if (row.rota_clients_id === null) add(`clients.${i}.rota_clients_id`, 'client_required');
      if (row.profiles_id === null) add(`clients.${i}.profiles_id`, 'required_profile');
    });
    if (!target) {
      if (!values.confirm_password) add('confirm_password', 'required_password');
      else if (values.password !== values.confirm_password) {
        add('confirm_password', 'passwords_must_match');
      }
    }
    if (values.avatar) {
      const issue = avatarIssue(values.avatar);
      if (issue) add('avatar', issue);
    }

    const clients = values.clients.map((row) => ({
      rota_clients_id: row.rota_clients_id ?? undefined,
      profiles_id: row.profiles_id ?? undefined,
    }));
    const fields = {
      name: values.name,
      last_name: values.last_name,
      email: values.email,
      access: values.access,
      group: values.group,
      sector: values.sector,
      work: values.work,
      role: values.role,
      password_change_required: values.password_change_required,
    };

    let output: UserFormOutput | null = null;
    if (target) {
      const changedMemberships = !sameMemberships(values.clients, target);
      const parsed = userUpdateSchema.safeParse({
        id: target.users_id,
        ...fields,
        // Unchanged memberships stay out: the server then leaves them alone, including those
        // in clients where the reader may not change users.
        ...(changedMemberships ? { clients } : {}),
        ...(values.remove_avatar && !values.avatar ? { avatar: null } : {}),
      });
      if (parsed.success) output = { mode: 'update', user: parsed.data, avatar: values.avatar };
      else for (const issue of parsed.error.issues) add(issue.path.join('.'), issue.message);
    } else {
      const parsed = userCreateSchema.safeParse({ ...fields, password: values.password, clients });
      if (parsed.success) output = { mode: 'create', user: parsed.data, avatar: values.avatar };
      else for (const issue of parsed.error.issues) add(issue.path.join('.'), issue.message);
    }

    if (Object.keys(errors).length > 0 || !output) return { values: {}, errors };
    return { values: output, errors: {} };
  };
}
