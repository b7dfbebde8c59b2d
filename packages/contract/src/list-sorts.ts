/*
 * The columns a list may be sorted by, apart from the list schemas that use them (robots.ts,
 * profiles.ts): a list page needs them before its first paint, and importing them must not
 * evaluate zod and the area's schemas.
 */

export const robotSortColumns = ['name', 'executor', 'active', 'created_at', 'updated_at'] as const;
export const profileSortColumns = ['name', 'created_at'] as const;
