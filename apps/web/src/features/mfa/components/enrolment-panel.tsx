import { useState } from 'react';
import { Alert, Button, Center, Image, Loader, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { mfaCodeBodySchema, type MfaCodeBody, type MfaEnrolment } from '@rota/contract';
import { CopyIcon } from '../../../components/copy-icon';
import { MONOSPACE_INPUT } from '../../../components/monospace-input';
import { applyFieldErrors, fieldError } from '../../../lib/form-errors';
import { errorText } from '../../../lib/http';
import { useMfaTranslation } from '../i18n';
import { CodeField } from './code-field';

type EnrolmentPanelProps = {
  /** The secret and its QR code; undefined while the server makes them. */
  enrolment: MfaEnrolment | undefined;
  /** Why the secret could not be made, if it could not. */
  loadError?: string | null;
  /** Sends the first code; rejects with the server's error (a wrong code names `code`). */
  onConfirm: (code: string) => Promise<unknown>;
};

/**
 * Setting up the authenticator app: scan the QR code (or type the secret), then prove it with
 * one code. Used from the user menu and during a sign-in that must enrol first.
 */
export function EnrolmentPanel({ enrolment, loadError, onConfirm }: EnrolmentPanelProps) {
  const t = useMfaTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<MfaCodeBody>({
    resolver: zodResolver(mfaCodeBodySchema),
    defaultValues: { code: '' },
  });
  const { errors, isSubmitting } = form.formState;

  if (loadError) {
    return (
      <Alert color="red" variant="light" title={t('enrol.loadError')}>
        {loadError}
      </Alert>
    );
  }
  if (!enrolment) {
    return (
      <Center py="xl">
        <Loader size="sm" aria-label={t('enrol.loading')} />
      </Center>
    );
  }

  async function onSubmit(values: MfaCodeBody) {
    setFailure(null);
    try {
      await onConfirm(values.code);
    } catch (error) {
      if (!applyFieldErrors(error, ['code'], form.setError)) setFailure(errorText(error));
    }
  }

  return (
    <Stack gap="md">
      <Text size="sm">{t('enrol.scan')}</Text>
      <Center>
        <Image
          src={enrolment.qr_code}
          alt={t('enrol.qrAlt')}
          w={200}
          h={200}
          fit="contain"
          bg="white"
          p={8}
          radius="sm"
        />
      </Center>
      <TextInput
        label={t('enrol.secret')}
        description={t('enrol.secretHint')}
        value={enrolment.secret}
        readOnly
        styles={MONOSPACE_INPUT}
        spellCheck={false}
        onFocus={(event) => event.currentTarget.select()}
        rightSection={
          <CopyIcon value={enrolment.secret} label={t('enrol.copySecret')} copied={t('copied')} />
        }
        rightSectionPointerEvents="all"
      />
      <form noValidate onSubmit={(event) => void form.handleSubmit(onSubmit)(event)}>
        <Stack gap="md">
          {failure ? (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          ) : null}
          <CodeField
            label={t('enrol.code')}
            description={t('enrol.codeHint')}
            error={fieldError(errors.code)}
            {...form.register('code')}
          />
          <Button type="submit" loading={isSubmitting}>
            {t('enrol.confirm')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
