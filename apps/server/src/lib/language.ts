import { LANGUAGES, type Language } from '@rota/contract';

/** API callers without a preference get English; the console always sends its language. */
export const API_DEFAULT_LANGUAGE: Language = 'en';

/** Best of pt/en from an Accept-Language header, honouring q-values. */
export function pickLanguage(header: string | undefined): Language {
  if (!header) return API_DEFAULT_LANGUAGE;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return {
        base: tag.toLowerCase().split('-')[0] ?? '',
        q: q ? Number(q.slice(2)) || 0 : 1,
        index,
      };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const entry of ranked) {
    const found = LANGUAGES.find((lang) => lang === entry.base);
    if (found) return found;
  }
  return API_DEFAULT_LANGUAGE;
}
