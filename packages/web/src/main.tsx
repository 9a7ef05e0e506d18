/** Entry: the query client, the router built from the route table, the shell. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, matchPath, RouterProvider } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from './api/outcomes.ts';
import { routes } from './routes.tsx';
import { fetchSession } from './api/session.ts';
import { keys } from './api/keys.ts';
import { Shell, RouteGate, NotFound } from './shell.tsx';
import { ToastProvider, mountedToasts } from './components/toast.tsx';
import './styles.css';

// Every call's 401 / 403 / network failure is answered in one place (api/outcomes.ts).
const queryClient = createQueryClient(mountedToasts);

// Ask for the session and load the first page's code at once, in parallel, before React renders.
void queryClient.prefetchQuery({ queryKey: keys.session, queryFn: fetchSession });
void routes.find((r) => matchPath(r.path, location.pathname))?.preload?.();

const router = createBrowserRouter([
  {
    element: <Shell />,
    children: [...routes.map((r) => ({ path: r.path, element: <RouteGate route={r} /> })), { path: '*', element: <NotFound /> }],
  },
]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>
  </StrictMode>,
);
