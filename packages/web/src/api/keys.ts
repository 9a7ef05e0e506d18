/**
 * The TanStack Query keys of every `/app/api` answer the app caches, in one table: a feature's mutation
 * invalidates other features' answers it changes (an upload changes the account's counts), so the keys are
 * shared, while the hooks that read them live with their feature (`features/<feature>/api/`).
 */
export const keys = {
  session: ['session'] as const,
  account: ['account'] as const,
  sessions: ['account', 'sessions'] as const,
  networks: (sort: string) => ['networks', sort] as const,
  networksAll: ['networks'] as const,
  network: (id: string) => ['network', id] as const,
  publicNetworks: (q: string, offset: number) => ['public-networks', q, offset] as const,
  credentials: ['credentials'] as const,
  scopes: ['scopes'] as const,
  link: (token: string) => ['link', token] as const,
  jobs: ['jobs'] as const,
  explore: (kind: 'public' | 'own', id: string) => ['explore', kind, id] as const,
  metrics: ['metrics'] as const,
};
