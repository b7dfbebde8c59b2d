import { QueryClient } from '@tanstack/react-query';

/**
 * Failed calls already tell the user (the client's popups); retrying would repeat the popup, and a
 * 4xx does not heal by itself. Queries that want retries opt in.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
