import { useState } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { SessionResponse } from '@rota/contract';
import { errorText } from '../../../lib/http';
import {
  confirmChallengeEnrolment,
  type EnrolledSession,
} from '../api/confirm-challenge-enrolment';
import { startChallengeEnrolment } from '../api/start-challenge-enrolment';
import { mfaKeys } from '../api/keys';
import { useMfaTranslation } from '../i18n';
import { EnrolmentPanel } from './enrolment-panel';
import { isExpiredChallenge, type MfaStepProps } from './mfa-code-step';
import { RecoveryCodesPanel } from './recovery-codes-panel';

/**
 * A client requires a second factor and this account has none: it enrols before it gets a
 * session, then sees its recovery codes once, then goes in.
 */
export function MfaEnrolStep({ challenge, onSignedIn, onBack }: MfaStepProps) {
  const t = useMfaTranslation();
  const [done, setDone] = useState<EnrolledSession | null>(null);
  const [expired, setExpired] = useState<string | null>(null);
  // A query, not an effect: it runs once per challenge (StrictMode too) and never refetches,
  // which would replace the secret the user is scanning.
  const enrolment = useQuery({
    queryKey: [...mfaKeys.all, 'sign-in-enrolment', challenge],
    queryFn: () => startChallengeEnrolment(challenge),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  async function confirm(code: string) {
    try {
      setDone(await confirmChallengeEnrolment({ challenge, code }));
    } catch (error) {
      if (isExpiredChallenge(error)) setExpired(errorText(error));
      else throw error;
    }
  }

  const failure = expired ?? (enrolment.isError ? errorText(enrolment.error) : null);
  if (failure) {
    return (
      <Stack gap="md">
        <Alert color="red" variant="light" role="alert" title={t('step.errorTitle')}>
          {failure}
        </Alert>
        <Button variant="default" onClick={onBack} fullWidth>
          {t('step.back')}
        </Button>
      </Stack>
    );
  }

  if (done) {
    const { recovery_codes: codes, ...session } = done;
    return (
      <RecoveryCodesPanel
        codes={codes}
        doneLabel={t('codes.savedContinue')}
        onDone={() => void onSignedIn(session as SessionResponse)}
      />
    );
  }

  return (
    <Stack gap="md">
      <Text size="sm">{t('step.enrolIntro')}</Text>
      <EnrolmentPanel enrolment={enrolment.data} onConfirm={confirm} />
    </Stack>
  );
}

export default MfaEnrolStep;
