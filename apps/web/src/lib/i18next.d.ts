import 'i18next';
import type { MESSAGES } from '@rota/contract';
import type en from '../locales/en.json';
import type robotsEn from '../features/robots/locales/en.json';
import type tasksEn from '../features/tasks/locales/en.json';
import type vmsEn from '../features/vms/locales/en.json';
import type agentsEn from '../features/agents/locales/en.json';
import type schedulingsEn from '../features/schedulings/locales/en.json';
import type calendarsEn from '../features/calendars/locales/en.json';
import type parametersEn from '../features/parameters/locales/en.json';
import type activityEn from '../features/activity/locales/en.json';
import type dashboardEn from '../features/dashboard/locales/en.json';
import type liveEn from '../features/live/locales/en.json';
import type environmentsEn from '../features/environments/locales/en.json';
import type statusItemsEn from '../features/status-items/locales/en.json';
import type usersEn from '../features/users/locales/en.json';
import type profilesEn from '../features/profiles/locales/en.json';
import type clientsEn from '../features/clients/locales/en.json';
import type auditEn from '../features/audit/locales/en.json';
import type teamsEn from '../features/teams/locales/en.json';
import type alertsEn from '../features/alerts/locales/en.json';
import type logStreamsEn from '../features/log-streams/locales/en.json';
import type apiKeysEn from '../features/api-keys/locales/en.json';
import type triggersEn from '../features/triggers/locales/en.json';
import type accountEn from '../features/account/locales/en.json';
import type mfaEn from '../features/mfa/locales/en.json';
import type sessionsEn from '../features/sessions/locales/en.json';
import type attendedEn from '../features/attended/locales/en.json';
import type maintenanceEn from '../features/maintenance/locales/en.json';
import type oidcEn from '../features/oidc/locales/en.json';
import type oidcSignInEn from '../features/oidc/locales/sign-in/en.json';
import type oidcLinkEn from '../features/oidc/locales/link/en.json';

// Typed keys: a `t('...')` call with a key missing from the catalogue fails the build.
// Feature namespaces (registered at run time by `features/<area>/i18n.ts`) are listed here by
// type only, so their strings stay out of the sign-in bundle while their keys are still checked.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof en;
      messages: (typeof MESSAGES)['en'];
      robots: typeof robotsEn;
      tasks: typeof tasksEn;
      vms: typeof vmsEn;
      agents: typeof agentsEn;
      schedulings: typeof schedulingsEn;
      calendars: typeof calendarsEn;
      parameters: typeof parametersEn;
      activity: typeof activityEn;
      dashboard: typeof dashboardEn;
      live: typeof liveEn;
      environments: typeof environmentsEn;
      statusItems: typeof statusItemsEn;
      users: typeof usersEn;
      profiles: typeof profilesEn;
      clients: typeof clientsEn;
      audit: typeof auditEn;
      teams: typeof teamsEn;
      alerts: typeof alertsEn;
      logStreams: typeof logStreamsEn;
      apiKeys: typeof apiKeysEn;
      triggers: typeof triggersEn;
      account: typeof accountEn;
      mfa: typeof mfaEn;
      sessions: typeof sessionsEn;
      attended: typeof attendedEn;
      maintenance: typeof maintenanceEn;
      oidc: typeof oidcEn;
      oidcSignIn: typeof oidcSignInEn;
      oidcLink: typeof oidcLinkEn;
    };
  }
}
