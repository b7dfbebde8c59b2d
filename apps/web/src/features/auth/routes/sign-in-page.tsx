import { Suspense, useEffect, useState } from 'react';
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type {
  MeResponse,
  MfaChallengeResponse,
  SessionCreate,
  SessionResponse,
} from '@rota/contract';
import { applyFieldErrors, fieldError } from '../../../lib/form-errors';
import { errorText } from '../../../lib/http';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { REQUEST_ACCESS_PATH, RECOVER_PASSWORD_PATH, safeRedirect } from '../../../lib/paths';
import { setToken } from '../../../lib/session';
import { MfaCodeStep, MfaEnrolStep } from '../../mfa';
import { isOidcConfigQuery, OidcSignIn, useLocalSignInShown } from '../../oidc';
import { createSession } from '../api/create-session';
import { meQueryOptions } from '../api/me';
import { AuthCard } from '../components/auth-card';
import { FailureAlert } from '../components/auth-feedback';

const FIELDS = ['access', 'password'] as const;

// zod and the contract's schema come with the first submit (or a field's focus), not with the
// page's first paint.
const validation = lazyResolver(() =>
  import('../components/sign-in-resolver').then((module) => module.signInResolver),
);

export default function SignInPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<MfaChallengeResponse | null>(null);
  const form = useForm<SessionCreate>({
    resolver: validation.resolver,
    defaultValues: { access: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const showLocal = useLocalSignInShown();

  // Whoever lands here (signed out, here or in another tab, or sent by a 401) leaves no data of
  // the previous session behind. The shell is unmounted by now, so nothing refetches it. The
  // public sign-on configuration stays: this page's children asked for it before this effect
  // ran, and clearing it too sent that request twice.
  useEffect(() => {
    queryClient.removeQueries({ predicate: (query) => !isOidcConfigQuery(query) });
  }, [queryClient]);

  async function finish({ token, ...user }: SessionResponse) {
    setToken(token);
    const me: MeResponse = { ...user, avatar: null };
    const { queryKey } = meQueryOptions();
    queryClient.setQueryData(queryKey, me);
    // Stale at once, so the shell fetches `me` for what the session answer lacks (the avatar).
    await queryClient.invalidateQueries({ queryKey, refetchType: 'none' });
    await navigate(safeRedirect(searchParams.get('redirect')), { replace: true });
  }

  async function onSubmit(values: SessionCreate) {
    setFailure(null);
    try {
      const answer = await createSession(values);
      // A second factor: the password was right, a code comes next.
      if ('mfa_required' in answer) setChallenge(answer);
      else await finish(answer);
    } catch (error) {
      // 401 wrong credentials and 429 throttling show inline with the server's message.
      if (!applyFieldErrors(error, FIELDS, form.setError)) setFailure(errorText(error));
    }
  }

  if (challenge) {
    const Step = challenge.enrolment_required ? MfaEnrolStep : MfaCodeStep;
    return (
      <AuthCard title={t('signIn.title')}>
        <Suspense fallback={null}>
          <Step
            challenge={challenge.challenge}
            onSignedIn={finish}
            onBack={() => {
              setChallenge(null);
              form.resetField('password');
            }}
          />
        </Suspense>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('signIn.title')}>
      {/* Single sign-on: its button above; the form stays unless local sign-in is off. */}
      <OidcSignIn />
      <form
        hidden={!showLocal}
        noValidate
        onFocus={validation.preload}
        onSubmit={(event) => void form.handleSubmit(onSubmit)(event)}
      >
        <Stack gap="md">
          <FailureAlert title={t('signIn.errorTitle')}>{failure}</FailureAlert>
          <TextInput
            label={t('signIn.access')}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            error={fieldError(errors.access)}
            {...form.register('access')}
          />
          <PasswordInput
            label={t('signIn.password')}
            autoComplete="current-password"
            error={fieldError(errors.password)}
            {...form.register('password')}
          />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to={RECOVER_PASSWORD_PATH} size="sm">
              {t('signIn.forgotPassword')}
            </Anchor>
          </Group>
          <Button type="submit" fullWidth loading={isSubmitting}>
            {t('signIn.submit')}
          </Button>
        </Stack>
      </form>
      <Text ta="center" size="sm" mt="lg">
        {t('signIn.noAccess')}{' '}
        {/* Underlined: inside a sentence, colour alone must not be what marks a link. */}
        <Anchor component={Link} to={REQUEST_ACCESS_PATH} underline="always">
          {t('signIn.requestAccess')}
        </Anchor>
      </Text>
    </AuthCard>
  );
}
