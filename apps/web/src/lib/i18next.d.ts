import 'i18next';
import type { MESSAGES } from '@rota/contract';
import type en from '../locales/en.json';
import type robotsEn from '../features/robots/locales/en.json';
import type tasksEn from '../features/tasks/locales/en.json';
import type vmsEn from '../features/vms/locales/en.json';
import type agentsEn from '../features/agents/locales/en.json';
import type schedulingsEn from '../features/schedulings/locales/en.json';
import type parametersEn from '../features/parameters/locales/en.json';
import type activityEn from '../features/activity/locales/en.json';
import type dashboardEn from '../features/dashboard/locales/en.json';
import type liveEn from '../features/live/locales/en.json';

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
      parameters: typeof parametersEn;
      activity: typeof activityEn;
      dashboard: typeof dashboardEn;
      live: typeof liveEn;
    };
  }
}
