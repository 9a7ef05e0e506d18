/**
 * Entry of the respondent pages bundle (built beside the web app by packages/web/build.ts, served by the
 * server at `/s/<token>` and `/s/open/<token>`): a small page of its own, without the app's session code.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../styles.css';
import './respondent.css';
import { OpenLinkApp, RespondentApp } from './app.tsx';

const parts = location.pathname.split('/').filter(Boolean); // ['s', token] or ['s', 'open', token]
const root = createRoot(document.getElementById('root') as HTMLElement);
root.render(
  <StrictMode>
    {parts[1] === 'open' ? <OpenLinkApp openToken={decodeURIComponent(parts[2] ?? '')} /> : <RespondentApp token={decodeURIComponent(parts[1] ?? '')} />}
  </StrictMode>,
);
