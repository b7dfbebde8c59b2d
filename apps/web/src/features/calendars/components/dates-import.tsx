import { useState } from 'react';
import { Alert, Button, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import type { Language } from '@rota/contract';
import { useCalendarsTranslation } from '../i18n';
import { parseDateList, type Day } from './calendar-days';

type DatesImportProps = {
  lang: Language;
  /** The days read; the caller adds them to the excluded ones. */
  onImport: (days: Day[]) => void;
};

/**
 * "Import dates": a pasted list (lines, commas or semicolons). What reads as a day is added;
 * what does not stays in the box and is listed, so nothing is silently dropped.
 */
export function DatesImport({ lang, onImport }: DatesImportProps) {
  const t = useCalendarsTranslation();
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<{ added: number; invalid: string[] } | null>(null);

  const submit = () => {
    const { dates, invalid } = parseDateList(text, lang);
    if (dates.length > 0) onImport(dates);
    setOutcome({ added: new Set(dates).size, invalid });
    // The bad entries stay, to be fixed and imported again.
    setText(invalid.join('\n'));
  };

  return (
    <Stack gap="xs">
      <Textarea
        label={t('import.label')}
        description={t('import.hint')}
        placeholder={t('import.placeholder')}
        autosize
        minRows={3}
        maxRows={8}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
      />
      <Group justify="flex-end">
        <Button
          variant="light"
          leftSection={<IconFileImport size={16} aria-hidden />}
          onClick={submit}
          disabled={!text.trim()}
        >
          {t('import.submit')}
        </Button>
      </Group>
      {outcome && outcome.invalid.length === 0 ? (
        <Text size="sm" c="teal" role="status">
          {t('import.added', { count: outcome.added })}
        </Text>
      ) : null}
      {outcome && outcome.invalid.length > 0 ? (
        <Alert
          color="red"
          variant="light"
          title={t('import.invalidTitle', { count: outcome.invalid.length })}
          role="alert"
        >
          <Stack gap={4}>
            <Text size="sm">{t('import.added', { count: outcome.added })}</Text>
            <List size="sm" spacing={2}>
              {outcome.invalid.map((entry, index) => (
                <List.Item key={`${entry}-${index}`}>{entry}</List.Item>
              ))}
            </List>
            <Text size="xs" c="dimmed">
              {t('import.invalidHint')}
            </Text>
          </Stack>
        </Alert>
      ) : null}
    </Stack>
  );
}
