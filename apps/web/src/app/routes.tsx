import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import type { ConsoleRoute } from '@rota/contract';
import { FullPageLoader } from '../components/full-page-loader';
import { RouteError } from '../components/route-error';
import { ACCOUNT_PATH } from '../features/account/paths';
import { API_KEYS_PATH } from '../features/api-keys/paths';
import { MY_ROBOTS_PATH } from '../features/attended/paths';
import { MFA_PATH } from '../features/mfa/paths';
import { NO_ACCESS_PATH } from '../features/oidc/paths';
import { SESSIONS_PATH } from '../features/sessions/paths';
import type { ShellRouteHandle } from '../features/shell/routes/shell-layout';
import {
  CHANGE_PASSWORD_PATH,
  HOME_PATH,
  RECOVER_PASSWORD_PATH,
  REQUEST_ACCESS_PATH,
  SIGN_IN_PATH,
} from '../lib/paths';
import { RootLayout } from './root-layout';

type PageModule = { default: ComponentType };

/** The signed-in shell's route: the pages below it start by asking for `me`. */
export const SHELL_ROUTE_ID = 'shell';

/** Every route loads its own chunk, which keeps the sign-in page's first download small. */
function lazyPage(load: () => Promise<PageModule>) {
  return async () => ({ Component: (await load()).default });
}

/** The shell's pages; the shell guards each with ROUTE_PERMISSIONS[route] (see its handle). */
export const SHELL_PAGES: ReadonlyArray<{ route: ConsoleRoute; load: () => Promise<PageModule> }> =
  [
    { route: '/dashboard', load: () => import('../features/dashboard/routes/dashboard-page') },
    { route: '/activity', load: () => import('../features/activity/routes/activity-page') },
    { route: '/parameter', load: () => import('../features/parameters/routes/parameters-page') },
    { route: '/robot', load: () => import('../features/robots/routes/robots-page') },
    { route: '/robot/field', load: () => import('../features/robots/routes/robot-fields-page') },
    { route: '/task', load: () => import('../features/tasks/routes/tasks-page') },
    { route: '/scheduling', load: () => import('../features/schedulings/routes/schedulings-page') },
    {
      route: '/scheduling/calendar',
      load: () => import('../features/calendars/routes/calendars-page'),
    },
    { route: '/node', load: () => import('../features/agents/routes/agents-page') },
    { route: '/vm', load: () => import('../features/vms/routes/vms-page') },
    { route: '/env', load: () => import('../features/environments/routes/environments-page') },
    { route: '/user', load: () => import('../features/users/routes/users-page') },
    { route: '/team', load: () => import('../features/teams/routes/teams-page') },
    {
      route: '/connector',
      load: () => import('../features/status-items/routes/status-items-page'),
    },
    // `/configuration` is another name of `/connector`: the same page.
    {
      route: '/configuration',
      load: () => import('../features/status-items/routes/status-items-page'),
    },
    { route: '/client', load: () => import('../features/clients/routes/clients-page') },
    { route: '/client/sso', load: () => import('../features/oidc/routes/mappings-page') },
    { route: '/audit', load: () => import('../features/audit/routes/audit-page') },
    { route: '/alert', load: () => import('../features/alerts/routes/alerts-page') },
    {
      route: '/log-stream',
      load: () => import('../features/log-streams/routes/log-streams-page'),
    },
  ];

/**
 * Shell pages below a list route (`/robot/:id`): guarded by their list route's permissions,
 * which is also what keeps the list's sidebar entry highlighted.
 */
export const SHELL_DETAIL_PAGES: ReadonlyArray<{
  path: string;
  route: ConsoleRoute;
  load: () => Promise<PageModule>;
}> = [
  {
    path: '/robot/:id',
    route: '/robot',
    load: () => import('../features/robots/routes/robot-detail-page'),
  },
  {
    path: '/activity/:id',
    route: '/activity',
    load: () => import('../features/activity/routes/execution-page'),
  },
  {
    path: '/task/:id',
    route: '/task',
    load: () => import('../features/tasks/routes/task-detail-page'),
  },
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    hydrateFallbackElement: <FullPageLoader />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to={HOME_PATH} replace /> },
      // Bare pages, and none of them asks for the current user.
      {
        path: SIGN_IN_PATH,
        lazy: lazyPage(() => import('../features/auth/routes/sign-in-page')),
      },
      {
        path: RECOVER_PASSWORD_PATH,
        lazy: lazyPage(() => import('../features/auth/routes/recover-password-page')),
      },
      {
        path: REQUEST_ACCESS_PATH,
        lazy: lazyPage(() => import('../features/auth/routes/request-access-page')),
      },
      {
        path: CHANGE_PASSWORD_PATH,
        lazy: lazyPage(() => import('../features/auth/routes/change-password-page')),
      },
      // Single sign-on found no client for the account.
      {
        path: NO_ACCESS_PATH,
        lazy: lazyPage(() => import('../features/oidc/routes/no-access-page')),
      },
      { path: '/login', element: <Navigate to={SIGN_IN_PATH} replace /> },
      {
        id: SHELL_ROUTE_ID,
        lazy: lazyPage(() => import('../features/shell/routes/shell-layout')),
        children: [
          ...SHELL_PAGES.map(({ route, load }) => ({
            path: route,
            handle: { route } satisfies ShellRouteHandle,
            lazy: lazyPage(load),
          })),
          // Static segments outrank `:id`, so `/robot/field` stays the fields page.
          ...SHELL_DETAIL_PAGES.map(({ path, route, load }) => ({
            path,
            handle: { route } satisfies ShellRouteHandle,
            lazy: lazyPage(load),
          })),
          // Every signed-in user's own page: no handle, so no permission guards it.
          {
            path: API_KEYS_PATH,
            lazy: lazyPage(() => import('../features/api-keys/routes/api-keys-page')),
          },
          // "My robots": not in the contract's route table, so no handle; it checks ROBOS.UPDATE.
          {
            path: MY_ROBOTS_PATH,
            lazy: lazyPage(() => import('../features/attended/routes/my-robots-page')),
          },
          // "My account": one's own, no permission.
          {
            path: ACCOUNT_PATH,
            lazy: lazyPage(() => import('../features/account/routes/account-page')),
          },
          // Two-step verification and sessions: one's own, no permission.
          { path: MFA_PATH, lazy: lazyPage(() => import('../features/mfa/routes/mfa-page')) },
          {
            path: SESSIONS_PATH,
            lazy: lazyPage(() => import('../features/sessions/routes/sessions-page')),
          },
          // Any other address: a not-found page with a way home, inside the shell when
          // signed in; signed out, the shell sends to sign-in as for any page.
          { path: '*', lazy: lazyPage(() => import('../components/not-found')) },
        ],
      },
    ],
  },
];
