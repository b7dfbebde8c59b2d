import { useState } from 'react';
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { mfaCodeBodySchema, type MfaCodeBody, type SessionResponse } from '@rota/contract';
import { applyFieldErrors, fieldError } from '../../../lib/form-errors';
import { errorText, isApiError } from '../../../lib/http';
import { verifyChallenge } from '../api/verify-challenge';
import { useMfaTranslation } from '../i18n';
import { CodeField } from './code-field';

export type MfaStepProps = {
  /** From the password answer (`mfa_required`). */
  challenge: string;
  /** The session answer, for the sign-in page to store and move on like after a password. */
  onSignedIn: (session: SessionResponse) => void | Promise<void>;
  /** Back to the password form (the challenge expired, or the user wants another account). */
  onBack: () => void;
};

/** A spent or unknown challenge: only a new password can start over. */
export function isExpiredChallenge(error: unknown): boolean {
  return isApiError(error) && error.code === 'mfa_challenge_expired';
}

/**
 * The sign-in's second step: the six digits of the authenticator app, or one recovery code.
 * Wrong codes show under the input; an expired challenge offers the way back.
 */
export function MfaCodeStep({ challenge, onSignedIn, onBack }: MfaStepProps) {
  const t = useMfaTranslation();
  const [recovery, setRecovery] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const form = useForm<MfaCodeBody>({
    resolver: zodResolver(mfaCodeBodySchema),
    defaultValues: { code: '' },
  });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: MfaCodeBody) {
    setFailure(null);
    try {
      const session = await verifyChallenge({ challenge, code: values.code });
      await onSignedIn(session);
    } catch (error) {
      if (isExpiredChallenge(error)) {
        setExpired(true);
        setFailure(errorText(error));
      } else if (!applyFieldErrors(error, ['code'], form.setError)) {
        setFailure(errorText(error));
      }
    }
  }

  function switchKind() {
    setRecovery((value) => !value);
    form.reset({ code: '' });
    setFailure(null);
  }

  return (
    <form noValidate onSubmit={(event) => void form.handleSubmit(onSubmit)(event)}>
      <Stack gap="md">
        <Text size="sm">{recovery ? t('step.recoveryIntro') : t('step.intro')}</Text>
        {failure ? (
          <Alert color="red" variant="light" role="alert" title={t('step.errorTitle')}>
            {failure}
          </Alert>
        ) : null}
        {expired ? (
          <Button variant="default" onClick={onBack} fullWidth>
            {t('step.back')}
          </Button>
        ) : (
          <>
            <CodeField
              key={recovery ? 'recovery' : 'totp'}
              recovery={recovery}
              label={recovery ? t('step.recoveryCode') : t('step.code')}
              data-autofocus
              autoFocus
              error={fieldError(errors.code)}
              {...form.register('code')}
            />
            <Button type="submit" fullWidth loading={isSubmitting}>
              {t('step.submit')}
            </Button>
            <Group justify="space-between">
              <Anchor component="button" type="button" size="sm" onClick={onBack}>
                {t('step.back')}
              </Anchor>
              <Anchor component="button" type="button" size="sm" onClick={switchKind}>
                {recovery ? t('step.useApp') : t('step.useRecovery')}
              </Anchor>
            </Group>
          </>
        )}
      </Stack>
    </form>
  );
}

export default MfaCodeStep;
