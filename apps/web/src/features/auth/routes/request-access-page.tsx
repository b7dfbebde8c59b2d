import { useState } from 'react';
import { Button, Stack, TextInput, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { accessRequestCreateSchema, type AccessRequestCreate } from '@rota/contract';
import { applyFieldErrors, fieldError } from '../../../lib/form-errors';
import { errorText } from '../../../lib/http';
import { requestAccess } from '../api/request-access';
import { AuthCard } from '../components/auth-card';
import { BackToSignInLink, FailureAlert, SentCard } from '../components/auth-feedback';

const FIELDS = ['name', 'email', 'client_name', 'message'] as const;

/** Someone without a user asks an administrator for one. */
export default function RequestAccessPage() {
  const { t } = useTranslation();
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(accessRequestCreateSchema),
    defaultValues: { name: '', email: '', client_name: '', message: '' },
  });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: AccessRequestCreate) {
    setFailure(null);
    try {
      const answer = await requestAccess({ ...values, message: values.message || undefined });
      setSent(answer.message);
    } catch (error) {
      if (!applyFieldErrors(error, FIELDS, form.setError)) setFailure(errorText(error));
    }
  }

  if (sent !== null) {
    return (
      <SentCard
        title={t('requestAccess.title')}
        heading={t('requestAccess.sentTitle')}
        message={sent}
      />
    );
  }

  return (
    <AuthCard title={t('requestAccess.title')} description={t('requestAccess.description')}>
      <form noValidate onSubmit={(event) => void form.handleSubmit(onSubmit)(event)}>
        <Stack gap="md">
          <FailureAlert title={t('requestAccess.errorTitle')}>{failure}</FailureAlert>
          <TextInput
            label={t('requestAccess.name')}
            autoComplete="name"
            error={fieldError(errors.name)}
            {...form.register('name')}
          />
          <TextInput
            type="email"
            label={t('requestAccess.email')}
            autoComplete="email"
            error={fieldError(errors.email)}
            {...form.register('email')}
          />
          <TextInput
            label={t('requestAccess.clientName')}
            autoComplete="organization"
            error={fieldError(errors.client_name)}
            {...form.register('client_name')}
          />
          <Textarea
            label={t('requestAccess.message')}
            autosize
            minRows={3}
            maxRows={8}
            error={fieldError(errors.message)}
            {...form.register('message')}
          />
          <Button type="submit" fullWidth loading={isSubmitting}>
            {t('requestAccess.submit')}
          </Button>
          <BackToSignInLink />
        </Stack>
      </form>
    </AuthCard>
  );
}
