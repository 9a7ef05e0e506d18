/** How a survey's status, privacy and response-rate band read on the page (docs/spec/decisions.md §10.2–10.3). */
import type { Privacy, SurveyStatus, Tracking } from '../api/types.ts';

export const STATUS_LABEL: Record<SurveyStatus, string> = { draft: 'Draft', collecting: 'Collecting', offline: 'Offline', completed: 'Completed' };

export const STATUS_TEXT: Record<SurveyStatus, string> = {
  draft: 'Not launched yet: nobody has a link.',
  collecting: 'Open: respondents can answer with their links.',
  offline: 'Paused: links show that the survey is not open; answers so far are kept.',
  completed: 'Closed: no more answers are accepted.',
};

export function StatusBadge({ status }: { status: SurveyStatus }) {
  return (
    <span className={`badge survey-status survey-status-${status}`} data-status={status}>
      {STATUS_LABEL[status]}
    </span>
  );
}

export const PRIVACY_LABEL: Record<Privacy, string> = { identified: 'Identified', confidential: 'Confidential', pseudonymised: 'Pseudonymised' };
export const PRIVACY_TEXT: Record<Privacy, string> = {
  identified: 'Names may appear in results.',
  confidential: 'You see who answered; reports never name anyone.',
  pseudonymised: 'Even you see stable codes, never names.',
};

export const BAND_LABEL: Record<Tracking['band'], string> = { high: 'High confidence', directional: 'Directional', low: 'Low confidence' };
export const BAND_TEXT: Record<Tracking['band'], string> = {
  high: '80 % or more answered: network measures are reliable.',
  directional: '65–79 % answered: measures show the direction, read them with care.',
  low: 'Below 65 %: network measures from so few answers are unreliable.',
};

export function BandBadge({ band }: { band: Tracking['band'] }) {
  return <span className={`badge band band-${band}`}>{BAND_LABEL[band]}</span>;
}

export const pct = (rate: number) => `${Math.round(rate * 100)} %`;
