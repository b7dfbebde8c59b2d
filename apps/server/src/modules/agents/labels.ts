import { automaticLabels, normalizeLabels, type AgentHello } from '@rota/contract';

/** What an agent carries: the console's labels and what its last hello made it carry. */
export const effectiveLabels = (row: { labels: string[]; hello_labels: string[] }) =>
  normalizeLabels([...row.labels, ...row.hello_labels]);

/**
 * What a hello makes the agent carry: the labels it declared, its OS and its architecture
 * (nothing automatic for what the hello leaves out).
 */
export const helloLabelsOf = (hello: Pick<AgentHello, 'os' | 'arch' | 'labels'>) =>
  normalizeLabels([...(hello.labels ?? []), ...automaticLabels(hello.os, hello.arch)]);

/** Two sorted lists of labels hold the same labels. */
export const sameLabels = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((label, i) => label === b[i]);
