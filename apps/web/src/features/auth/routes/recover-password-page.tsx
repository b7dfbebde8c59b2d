import { useState } from 'react';
import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { recoverPasswordSchema, type RecoverPassword } from '@rota/contract';
import { applyFieldErrors, fieldError } from '../../../lib/form-errors';
import { errorText } from '../../../lib/http';
import { SIGN_IN_PATH } from '../../../lib/paths';
import { recoverPassword } from '../api/recover-password';
import { AuthCard } from '../components/auth-card';

export default function RecoverPasswordPage() {
  const { t } = useTranslation();
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(recoverPasswordSchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: RecoverPassword) {
    setFailure(null);
    try {
      const answer = await recoverPassword(values);
      setSent(answer.message);
    } catch (error) {
      if (!applyFieldErrors(error, ['email'], form.setError)) setFailure(errorText(error));
    }
  }

  const backLink = (
    <Anchor component={Link} to={SIGN_IN_PATH} size="sm" ta="center" display="block">
      {t('auth.backToSignIn')}
    </Anchor>
  );

  if (sent !== null) {
    return (
      <AuthCard title={t('recoverPassword.title')}>
        <Stack gap="md">
          <Alert
            color="teal"
            variant="light"
            title={t('recoverPassword.sentTitle')}
            icon={<IconMailCheck aria-hidden />}
          >
            {sent}
          </Alert>
          {backLink}
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('recoverPassword.title')} description={t('recoverPassword.description')}>
      <form noValidate onSubmit={(event) => void form.handleSubmit(onSubmit)(event)}>
        <Stack gap="md">
          {failure ? (
            <Alert
              color="red"
              variant="light"
              title={t('recoverPassword.errorTitle')}
              icon={<IconAlertCircle aria-hidden />}
            >
              {failure}
            </Alert>
          ) : null}
          <TextInput
            type="email"
            label={t('recoverPassword.email')}
            autoComplete="email"
            error={fieldError(errors.email)}
            {...form.register('email')}
          />
          <Button type="submit" fullWidth loading={isSubmitting}>
            {t('recoverPassword.submit')}
          </Button>
          {backLink}
        </Stack>
      </form>
    </AuthCard>
  );
}
