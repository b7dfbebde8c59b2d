import 'i18next';
import type { MESSAGES } from '@rota/contract';
import type en from '../locales/en.json';

// Typed keys: a `t('...')` call with a key missing from the catalogue fails the build.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof en;
      messages: (typeof MESSAGES)['en'];
    };
  }
}
