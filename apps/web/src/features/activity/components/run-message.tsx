import { renderRunMessage, type RunMessageParams } from '@rota/contract';
import { useFormat } from '../../../lib/format';

/** What a run, an attempt or a system log line carries: English text, maybe a code and values. */
export interface RunMessageSource {
  text: string | null;
  code?: string | null;
  params?: RunMessageParams | null;
}

/**
 * A message the server or the agent wrote into a run, in the console's language: its code and
 * values rendered from the contract's catalogue; without a code (an older agent, the robot's own
 * words) or with one this build does not know, the stored text as it is.
 */
export function useRunMessage({ text, code, params }: RunMessageSource): string | null {
  const { lang } = useFormat();
  return renderRunMessage(lang, code, params, text);
}

export function RunMessage(props: RunMessageSource & { fallback?: string }) {
  const message = useRunMessage(props);
  return <>{message ?? props.fallback ?? null}</>;
}
