/**
 * `/surveys/:id/*`: one survey, in the steps an analyst takes (docs/surveys.md): Questions (the builder
 * with settings and the live respondent preview), Respondents (who can be named, who is asked), Launch
 * (check list, status, links), Tracking (response rate, who has not started, responses). `SURVEY_STEPS`
 * is the one list of steps: a further step (generating networks from the answers) adds an entry there.
 */
import { useState, type ComponentType, type ReactNode } from 'react';
import { Link, NavLink, matchPath, useLocation, useParams } from 'react-router';
import { APP_PATHS, pathTo } from '@netloom/protocol/http';
import { ApiError } from '../../../api/client.ts';
import { Button, Empty, ErrorNotice, Loading, PageHeader } from '../../../components/ui.tsx';
import { useSurvey } from '../api/surveys.ts';
import type { Survey } from '../api/types.ts';
import { StatusBadge, STATUS_TEXT } from '../components/status.tsx';
import { ShareDialog } from '../components/share-dialog.tsx';
import { Builder } from './builder.tsx';
import { RespondentsStep } from './respondents.tsx';
import { LaunchStep } from './launch.tsx';
import { TrackingStep } from './tracking.tsx';
import { GenerateNetworks } from '../components/generate-networks.tsx';
import '../surveys.css';

export interface SurveyStep {
  /** Path pattern in APP_PATHS (the server serves the app's index.html for it). */
  path: string;
  label: string;
  /** Shown only when this says so (e.g. tracking once launched). */
  visible?: (s: Survey) => boolean;
  Component: ComponentType<{ survey: Survey }>;
}

export const SURVEY_STEPS: SurveyStep[] = [
  { path: APP_PATHS.survey, label: 'Questions', Component: Builder },
  { path: APP_PATHS.surveyRespondents, label: 'Respondents', Component: RespondentsStep },
  { path: APP_PATHS.surveyLaunch, label: 'Launch and links', Component: LaunchStep },
  { path: APP_PATHS.surveyTracking, label: 'Tracking', visible: (s) => s.status !== 'draft', Component: TrackingStep },
  { path: APP_PATHS.surveyNetworks, label: 'Networks', visible: (s) => s.status !== 'draft', Component: GenerateNetworks },
];

function SurveyLayout({ step }: { step: SurveyStep }) {
  const { id = '' } = useParams();
  const { data: s, isPending, error } = useSurvey(id);
  const [sharing, setSharing] = useState(false);
  if (isPending) return <Loading />;
  if (error) {
    if (error instanceof ApiError && error.status === 404)
      return (
        <Empty level={1} title="Survey not found" action={<Link className="btn btn-primary" to={APP_PATHS.surveys}>Back to surveys</Link>}>
          <p>It was deleted, or it is not shared with you.</p>
        </Empty>
      );
    return <ErrorNotice error={error} />;
  }
  const steps = SURVEY_STEPS.filter((x) => !x.visible || x.visible(s));
  let body: ReactNode = <step.Component survey={s} />;
  if (step.visible && !step.visible(s)) body = <p className="muted">This step opens once the survey is launched.</p>;
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={APP_PATHS.surveys}>Surveys</Link> <span aria-hidden="true">/</span>
      </nav>
      <PageHeader
        title={s.name}
        subtitle={
          <>
            <StatusBadge status={s.status} /> {STATUS_TEXT[s.status]}
            {s.wave > 1 ? ` Wave ${s.wave}.` : ''}
          </>
        }
      >
        {s.access === 'owner' && <Button onClick={() => setSharing(true)}>Share</Button>}
      </PageHeader>
      <nav className="tabs" aria-label="Survey steps">
        {steps.map((x) => (
          <NavLink key={x.path} to={pathTo(x.path, { id: s._id })} end className={({ isActive }) => `tab${isActive ? ' tab-active' : ''}`}>
            {x.label}
          </NavLink>
        ))}
      </nav>
      {body}
      {s.access === 'owner' && <ShareDialog survey={s} open={sharing} onClose={() => setSharing(false)} />}
    </>
  );
}

/** Every step's route (routes.tsx) shows this page; the step is the one whose path matches the URL. */
export default function SurveyPage() {
  const { pathname } = useLocation();
  const step = SURVEY_STEPS.find((x) => matchPath({ path: x.path, end: true }, pathname)) ?? (SURVEY_STEPS[0] as SurveyStep);
  return <SurveyLayout step={step} />;
}
