import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  LANGUAGE_STORAGE_KEY,
  MESSAGES,
  isMessageRef,
  translateMessage,
  type Language,
} from '@rota/contract';
import en from '../locales/en.json';
import pt from '../locales/pt.json';

/** `<html lang>` wants a region for Portuguese so screen readers pick the Brazilian voice. */
const HTML_LANG: Record<Language, string> = { pt: 'pt-BR', en: 'en' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

function readStoredLanguage(): Language {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: {
    pt: { translation: pt, messages: MESSAGES.pt },
    en: { translation: en, messages: MESSAGES.en },
  },
  lng: readStoredLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: ['translation', 'messages'],
  defaultNS: 'translation',
  interpolation: { escapeValue: false },
  // Resources are bundled, so init can finish synchronously before the first render.
  initAsync: false,
  returnNull: false,
});

function applyLanguage(lang: string): void {
  if (!isLanguage(lang)) return;
  document.documentElement.lang = HTML_LANG[lang];
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    // Private mode can refuse storage; the language still applies to this page.
  }
}

applyLanguage(i18n.language);
i18n.on('languageChanged', applyLanguage);

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

export function changeLanguage(lang: Language): Promise<unknown> {
  return i18n.changeLanguage(lang);
}

/**
 * Field errors arrive either as contract message keys (from the zod schemas in the browser),
 * maybe with values (`msgWith`: "Between {{min}} and {{max}}"), or as text the server already
 * translated; only the keys go through the catalogue.
 */
export function localizeMessage(message: string): string {
  return isMessageRef(message) ? translateMessage(currentLanguage(), message) : message;
}

type Translations = Record<string, unknown>;

/**
 * A feature's strings, added when the feature's code loads (its own namespace), so they stay
 * out of the sign-in page's first download and two features never edit the same file.
 * Call at module level in `features/<area>/i18n.ts`; use with `useTranslation('<area>')`.
 */
export function registerTranslations(
  namespace: string,
  bundles: Record<Language, Translations>,
): void {
  for (const lang of LANGUAGES) {
    if (!i18n.hasResourceBundle(lang, namespace)) {
      i18n.addResourceBundle(lang, namespace, bundles[lang], true, false);
    }
  }
}
