import { FileInput, TextInput, Textarea } from '@mantine/core';
import { IconFileZip } from '@tabler/icons-react';
import { Controller, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  ROBOT_PACKAGE_MAX_BYTES,
  msg,
  robotPackageFormat,
  robotVersionCreateSchema,
} from '@rota/contract';
import { FormDrawer } from '../../../components/form-drawer';
import { fieldError } from '../../../lib/form-errors';
import { useCreateRobotVersion } from '../api/create-robot-version';
import '../i18n';

/**
 * The text parts are checked by the contract's robotVersionCreateSchema, like the server does;
 * the `file` part by the same rules the server applies to the package (format by name, size).
 */
const uploadSchema = robotVersionCreateSchema.extend({
  file: z
    .custom<File>((value) => typeof File !== 'undefined' && value instanceof File, {
      error: msg('required_file'),
    })
    .refine((file) => robotPackageFormat(file.name) !== null, { error: msg('package_format') })
    .refine((file) => file.size <= ROBOT_PACKAGE_MAX_BYTES, { error: msg('package_too_large') }),
});

const FIELDS = ['rota_robots_id', 'version', 'notes', 'file'] as const;

type RobotVersionUploadDrawerProps = {
  opened: boolean;
  onClose: () => void;
  robotId: number;
};

/** "Enviar versão": version, notes and the package, sent as multipart/form-data. */
export function RobotVersionUploadDrawer({
  opened,
  onClose,
  robotId,
}: RobotVersionUploadDrawerProps) {
  const { t } = useTranslation('robots');
  const upload = useCreateRobotVersion();
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title={t('versions.uploadTitle')}
      submitLabel={t('versions.uploadSubmit')}
      schema={uploadSchema}
      defaultValues={{ rota_robots_id: robotId, version: '', notes: '', file: undefined }}
      fields={FIELDS}
      onSubmit={(values) =>
        upload.mutateAsync({
          rota_robots_id: values.rota_robots_id,
          version: values.version,
          notes: values.notes,
          file: values.file,
        })
      }
    >
      {(form) => (
        <>
          <TextInput
            label={t('versions.version')}
            description={t('versions.versionHint')}
            withAsterisk
            data-autofocus
            autoComplete="off"
            error={fieldError(form.formState.errors.version)}
            {...form.register('version')}
          />
          <Textarea
            label={t('versions.notes')}
            autosize
            minRows={3}
            maxRows={8}
            error={fieldError(form.formState.errors.notes)}
            {...form.register('notes')}
          />
          <Controller
            control={form.control}
            name="file"
            render={({ field }) => (
              <FileInput
                label={t('versions.file')}
                description={t('versions.fileHint')}
                placeholder={t('versions.filePlaceholder')}
                withAsterisk
                clearable
                accept=".zip,.tar.gz,.tgz,application/zip,application/gzip"
                leftSection={<IconFileZip size={16} aria-hidden />}
                value={(field.value as File | undefined) ?? null}
                onChange={(file) => field.onChange(file ?? undefined)}
                onBlur={field.onBlur}
                // A File's error is typed as if a File had fields of its own.
                error={fieldError(form.formState.errors.file as FieldError | undefined)}
              />
            )}
          />
        </>
      )}
    </FormDrawer>
  );
}
