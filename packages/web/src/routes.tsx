/**
 * The route table: every page of the app, its access rule, its place in the navigation and its title.
 * Pages are code-split (React.lazy) so the first load carries only the shell and the page asked for.
 * Adding a page (e.g. the organization console): add its path to paths.ts (the server serves index.html
 * for it) and an entry here; `nav.visible` decides per session whether its link shows.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { APP_PATHS } from '@netloom/protocol/http';
import type { Session } from './api/types.ts';
import Home from './features/auth/pages/home.tsx';
import SignIn from './features/auth/pages/sign-in.tsx';

export type Access =
  /** Anyone, signed in or not. */
  | 'public'
  /** Signed out only (sign-in); a signed-in person is sent on. */
  | 'guest'
  /** Signed in; while MFA enrolment is required, only the enrolment page. */
  | 'user';

export interface AppRoute {
  path: string;
  access: Access;
  title: string;
  page: LazyExoticComponent<ComponentType> | ComponentType;
  /** Starts loading the page's code (called for the first URL before the session is known: no waterfall). */
  preload?: () => Promise<unknown>;
  /** Shown in the header navigation, in `order`. */
  nav?: { label: string; order: number; visible?: (s: Session | null) => boolean };
  /** The page fills the viewport below the header (Explore). */
  fullBleed?: boolean;
}

/** A code-split page: the lazy component and its loader (for preloading). */
function page(load: () => Promise<{ default: ComponentType }>): Pick<AppRoute, 'page' | 'preload'> {
  let p: Promise<{ default: ComponentType }> | null = null;
  const once = () => (p ??= load());
  return { page: lazy(once), preload: once };
}

/** People and surveys: Owners, Admins and Standard Users of an organization, or a user in none (their own directory; docs/spec/decisions.md §10.1). */
const MANAGING_ROLES = new Set(['Owner', 'Admin', 'Standard User']);
export const managesPeople = (s: Session | null): boolean => s !== null && (!s.organization || MANAGING_ROLES.has(s.organization.role));
const surveysList = page(() => import('./features/surveys/pages/surveys.tsx'));
const surveyPage = page(() => import('./features/surveys/pages/survey.tsx'));

export const routes: AppRoute[] = [
  // The two pages a first visit sees are in the main bundle (small; no extra round trip).
  { path: APP_PATHS.home, access: 'public', title: 'Netloom', page: Home },
  { path: APP_PATHS.signIn, access: 'guest', title: 'Sign in', page: SignIn },
  { path: APP_PATHS.link, access: 'public', title: 'Set your password', ...page(() => import('./features/auth/pages/link.tsx')) },
  { path: APP_PATHS.mfaEnrol, access: 'user', title: 'Two-factor authentication', ...page(() => import('./features/account/pages/mfa-enrol.tsx')) },
  { path: APP_PATHS.networks, access: 'user', title: 'Networks', ...page(() => import('./features/networks/pages/networks.tsx')), nav: { label: 'Networks', order: 10, visible: (s) => s !== null } },
  { path: APP_PATHS.network, access: 'user', title: 'Network', ...page(() => import('./features/networks/pages/network.tsx')) },
  { path: APP_PATHS.explore, access: 'user', title: 'Explore', ...page(() => import('./features/explore/pages/explore.tsx')), fullBleed: true },
  { path: APP_PATHS.discover, access: 'public', title: 'Discover', ...page(() => import('./features/discover/pages/discover.tsx')), nav: { label: 'Discover', order: 20 } },
  { path: APP_PATHS.discoverExplore, access: 'public', title: 'Explore', ...page(() => import('./features/explore/pages/explore.tsx')), fullBleed: true },
  { path: APP_PATHS.jobs, access: 'user', title: 'Jobs', ...page(() => import('./features/jobs/pages/jobs.tsx')), nav: { label: 'Jobs', order: 25, visible: (s) => s !== null } },
  { path: APP_PATHS.people, access: 'user', title: 'People', ...page(() => import('./features/people/pages/people.tsx')), nav: { label: 'People', order: 27, visible: managesPeople } },
  { path: APP_PATHS.surveys, access: 'user', title: 'Surveys', ...surveysList, nav: { label: 'Surveys', order: 28, visible: managesPeople } },
  ...[APP_PATHS.survey, APP_PATHS.surveyRespondents, APP_PATHS.surveyLaunch, APP_PATHS.surveyTracking, APP_PATHS.surveyNetworks].map((path): AppRoute => ({ path, access: 'user', title: 'Survey', ...surveyPage })),
  { path: APP_PATHS.compare, access: 'user', title: 'Compare', ...page(() => import('./features/analysis/pages/compare.tsx')), nav: { label: 'Compare', order: 29, visible: (s) => s !== null } },
  { path: APP_PATHS.credentials, access: 'user', title: 'API credentials', ...page(() => import('./features/credentials/pages/credentials.tsx')), nav: { label: 'Credentials', order: 30, visible: (s) => s !== null } },
  { path: APP_PATHS.organization, access: 'user', title: 'Organization', ...page(() => import('./features/organization/pages/members.tsx')), nav: { label: 'Organization', order: 35, visible: (s) => !!s?.organization } },
  { path: APP_PATHS.organizationEmbedding, access: 'user', title: 'Embedding', ...page(() => import('./features/organization/pages/embedding.tsx')) },
  { path: APP_PATHS.organizationTry, access: 'user', title: 'Try embedding', ...page(() => import('./features/organization/pages/try.tsx')) },
  { path: APP_PATHS.organizationAudit, access: 'user', title: 'Audit log', ...page(() => import('./features/organization/pages/audit.tsx')) },
  { path: APP_PATHS.account, access: 'user', title: 'Account', ...page(() => import('./features/account/pages/account.tsx')), nav: { label: 'Account', order: 40, visible: (s) => s !== null } },
];

/** External sections linked from the header (server-rendered, not app routes). */
export const externalNav = [{ label: 'Docs', href: '/docs/' }];
