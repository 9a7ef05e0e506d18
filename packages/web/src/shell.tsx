/**
 * The frame around every page: skip link, header (brand, navigation from the route table, the signed-in
 * person and sign-out), main area, and `RouteGate`, which applies a route's access rule, its title and
 * moves focus to the page heading after navigation (screen readers hear the new page).
 */
import { Suspense, useEffect, useRef, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, matchPath, useLocation, useNavigate } from 'react-router';
import { routes, externalNav, type AppRoute } from './routes.tsx';
import { useSession } from './api/session.ts';
import { useSignOut } from './features/auth/api/auth.ts';
import { sessionEnded } from './api/outcomes.ts';
import { APP_PATHS, safeNext } from '@netloom/protocol/http';
import { Button, Loading, Empty, ErrorNotice } from './components/ui.tsx';

function currentRoute(pathname: string): AppRoute | undefined {
  return routes.find((r) => matchPath(r.path, pathname));
}

export function Shell() {
  const location = useLocation();
  const route = currentRoute(location.pathname);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [location.pathname]);
  return (
    <div className={route?.fullBleed ? 'app app-full' : 'app'}>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="topbar">
        <Link to={APP_PATHS.home} className="brand" aria-label="Netloom home">
          <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true"><rect width="32" height="32" rx="7" fill="currentColor" /><path d="M9 22 16 9l7 13z" fill="none" stroke="#fff" strokeWidth="2" /><g fill="#fff"><circle cx="9" cy="22" r="3.5" /><circle cx="16" cy="9" r="3.5" /><circle cx="23" cy="22" r="3.5" /></g></svg>
          <span>Netloom</span>
        </Link>
        <button type="button" className="btn btn-secondary menu-toggle" aria-expanded={menuOpen} aria-controls="primary-nav" onClick={() => setMenuOpen((o) => !o)}>
          Menu
        </button>
        <TopNav open={menuOpen} />
      </header>
      <main id="main" className="main" tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

function TopNav({ open }: { open: boolean }) {
  const { data: session } = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const items = routes.filter((r) => r.nav && (r.nav.visible ? r.nav.visible(session ?? null) : true)).sort((a, b) => a.nav!.order - b.nav!.order);
  return (
    <nav id="primary-nav" className={open ? 'nav nav-open' : 'nav'} aria-label="Main">
      <ul className="nav-links">
        {items.map((r) => (
          <li key={r.path}>
            <NavLink to={r.path} end={false}>{r.nav!.label}</NavLink>
          </li>
        ))}
      </ul>
      <div className="nav-user">
        {/* the documentation is a utility link beside the account, so the sections keep one row at 1280 px */}
        {externalNav.map((x) => (
          <a key={x.href} className="nav-utility" href={x.href}>{x.label}</a>
        ))}
        {session ? (
          <>
            <span className="nav-email" title={session.user.email}>{session.user.email}</span>
            <Button
              variant="ghost"
              busy={signOut.isPending}
              onClick={() =>
                signOut.mutate(undefined, { onSettled: () => navigate(APP_PATHS.signIn) })
              }
            >
              Sign out
            </Button>
          </>
        ) : (
          session === null && <Link className="btn btn-primary" to={APP_PATHS.signIn}>Sign in</Link>
        )}
      </div>
    </nav>
  );
}

let firstRender = true;

export function RouteGate({ route }: { route: AppRoute }) {
  const { data: session, isPending, error } = useSession();
  const location = useLocation();
  const Page = route.page;
  useEffect(() => {
    document.title = route.title === 'Netloom' ? 'Netloom' : `${route.title} · Netloom`;
  }, [route.title]);
  const focused = useRef(false);
  useEffect(() => {
    if (isPending || focused.current) return;
    focused.current = true;
    if (firstRender) {
      firstRender = false;
      return;
    }
    // After a navigation, focus the page heading (once it has rendered) or the main area.
    const t = setTimeout(() => (document.getElementById('page-title') ?? document.getElementById('main'))?.focus({ preventScroll: false }), 60);
    return () => clearTimeout(t);
  }, [isPending, location.pathname]);

  if (isPending) return <Loading />;
  if (error) return <ErrorNotice error={error} title="The service did not answer" />;
  const next = location.pathname + location.search;
  // signed out, or the session ended while in use (api/outcomes.ts): sign-in says so and returns here after
  if (route.access === 'user' && !session) return <Navigate to={`${APP_PATHS.signIn}?next=${encodeURIComponent(next)}${sessionEnded() ? '&expired=1' : ''}`} replace />;
  if (route.access === 'user' && session?.mfaEnrolmentRequired && route.path !== APP_PATHS.mfaEnrol) return <Navigate to={APP_PATHS.mfaEnrol} replace />;
  if (route.access === 'guest' && session) return <Navigate to={safeNext(new URLSearchParams(location.search).get('next'))} replace />;
  return <Page />;
}


export function NotFound() {
  useEffect(() => {
    document.title = 'Page not found · Netloom';
  }, []);
  return (
    <Empty level={1} title="Page not found" action={<Link className="btn btn-primary" to={APP_PATHS.home}>Go to the start page</Link>}>
      <p>There is no page at this address.</p>
    </Empty>
  );
}
