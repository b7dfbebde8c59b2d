import { useEffect, useMemo } from 'react';
import {
  Alert,
  Button,
  Center,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { IconDownload, IconFile } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isInlineArtifactType, type Artifact, type ExecutionDetail } from '@rota/contract';
import { DateTimeText } from '../../../components/date-time';
import { useFormat } from '../../../lib/format';
import { artifactImageQueryOptions, useDownloadArtifact } from '../api/download-artifact';
import { artifactsQueryOptions } from '../api/list-artifacts';
import { useActivityTranslation } from '../i18n';
import { isFinalStatus } from './execution-status';

/** Poll interval of a running execution's artifacts (uploads send no live event). */
const RUNNING_POLL_MS = 10_000;
const THUMBNAIL_HEIGHT = 140;

/** An object URL for a blob, released when the blob changes or the component goes. */
function useObjectUrl(blob: Blob | undefined): string | undefined {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : undefined), [blob]);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}

/** An image artifact, fetched with the session (no token in a URL) and shown from memory. */
function Thumbnail({ artifact }: { artifact: Artifact }) {
  const image = useQuery(artifactImageQueryOptions(artifact.rota_artifacts_id));
  const url = useObjectUrl(image.data);
  if (!url) {
    return image.isError ? <Placeholder /> : <Skeleton height={THUMBNAIL_HEIGHT} radius="sm" />;
  }
  return (
    <Image
      src={url}
      alt={artifact.name}
      h={THUMBNAIL_HEIGHT}
      fit="contain"
      radius="sm"
      bg="var(--mantine-color-default-hover)"
    />
  );
}

function Placeholder() {
  return (
    <Center
      h={THUMBNAIL_HEIGHT}
      bg="var(--mantine-color-default-hover)"
      style={{ borderRadius: 4 }}
    >
      <IconFile size={40} stroke={1.2} aria-hidden />
    </Center>
  );
}

function ArtifactCard({ artifact }: { artifact: Artifact }) {
  const t = useActivityTranslation();
  const format = useFormat();
  const download = useDownloadArtifact();
  return (
    <Paper withBorder radius="md" p="sm" component="li" aria-label={artifact.name}>
      <Stack gap="xs">
        {isInlineArtifactType(artifact.media_type) ? (
          <Thumbnail artifact={artifact} />
        ) : (
          <Placeholder />
        )}
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {artifact.name}
        </Text>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {artifact.media_type} · {format.bytes(artifact.size)}
        </Text>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <DateTimeText value={artifact.created_at} size="xs" c="dimmed" />
          <Button
            size="xs"
            variant="light"
            leftSection={<IconDownload size={14} aria-hidden />}
            loading={download.isPending}
            onClick={() => download.mutate(artifact)}
            aria-label={t('evidence.downloadNamed', { name: artifact.name })}
          >
            {t('evidence.download')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * An execution's evidence: the files its robot uploaded (robot API `artifact/upload`), images as
 * thumbnails, every one downloadable. The server never serves HTML or SVG inline; the console
 * only previews PNG, JPEG, GIF and WebP.
 */
export function ExecutionEvidence({ execution }: { execution: ExecutionDetail }) {
  const t = useActivityTranslation();
  const { t: tc } = useTranslation();
  const artifacts = useQuery({
    ...artifactsQueryOptions(execution.execution_id),
    refetchInterval: isFinalStatus(execution.status) ? false : RUNNING_POLL_MS,
  });
  if (artifacts.isPending) {
    return <Skeleton height={THUMBNAIL_HEIGHT} radius="md" role="status" aria-busy="true" />;
  }
  if (artifacts.isError) {
    return (
      <Alert color="red" variant="light" title={t('evidence.loadError')}>
        <Text size="sm">{artifacts.error.message}</Text>
        <Button
          size="xs"
          variant="light"
          color="red"
          mt="sm"
          onClick={() => void artifacts.refetch()}
        >
          {tc('app.retry')}
        </Button>
      </Alert>
    );
  }
  if (artifacts.data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('evidence.empty')}
      </Text>
    );
  }
  return (
    <SimpleGrid
      cols={{ base: 1, xs: 2, md: 3, lg: 4 }}
      spacing="sm"
      component="ul"
      aria-label={t('evidence.label')}
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      {artifacts.data.map((artifact) => (
        <ArtifactCard key={artifact.rota_artifacts_id} artifact={artifact} />
      ))}
    </SimpleGrid>
  );
}
