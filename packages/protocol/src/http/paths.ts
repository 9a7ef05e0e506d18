/**
 * The web application's URL paths, as plain data (no React, no DOM): the single list both the browser
 * router (src/routes.tsx) and the server (routes/web-assets.ts, which answers these paths with the app's
 * index.html) use. A page added to the app (e.g. the organization console) adds its path here and in the
 * route table; patterns use `:param` and a trailing `*`, understood by React Router and Fastify alike.
 */
export const APP_PATHS = {
  home: '/',
  signIn: '/sign-in',
  link: '/link/:token',
  mfaEnrol: '/account/mfa',
  networks: '/networks',
  network: '/networks/:id',
  explore: '/networks/:id/explore',
  discover: '/discover',
  discoverExplore: '/discover/:id/explore',
  jobs: '/jobs',
  people: '/people',
  surveys: '/surveys',
  survey: '/surveys/:id',
  surveyRespondents: '/surveys/:id/respondents',
  surveyLaunch: '/surveys/:id/launch',
  surveyTracking: '/surveys/:id/tracking',
  surveyNetworks: '/surveys/:id/networks',
  compare: '/analysis/compare',
  credentials: '/credentials',
  account: '/account',
  organization: '/organization',
  organizationEmbedding: '/organization/embedding',
  organizationTry: '/organization/try',
  organizationAudit: '/organization/audit',
} as const;

/** Every path the server answers with index.html (the app then renders the page or its own "not found"). */
export const SERVER_APP_PATHS: readonly string[] = Object.values(APP_PATHS);

/** Fills a path pattern: `pathTo('/networks/:id', { id: 'x' })` → `/networks/x`. */
export function pathTo(pattern: string, params: Record<string, string> = {}): string {
  return pattern.replace(/:(\w+)/g, (_m, k: string) => encodeURIComponent(params[k] ?? ''));
}

/** Where a `next` parameter may lead after sign-in: only a path of this app (never another site). */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : APP_PATHS.networks;
}
