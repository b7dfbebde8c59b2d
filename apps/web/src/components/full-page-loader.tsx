import { Center, Loader } from '@mantine/core';

/** Shown while the first route's code loads; no text, so no translation is needed yet. */
export function FullPageLoader() {
  return (
    <Center mih="100dvh">
      <Loader aria-hidden />
    </Center>
  );
}
