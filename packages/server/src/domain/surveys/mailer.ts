/**
 * Survey e-mail (docs/spec/decisions.md §9, "Distribution"; docs/surveys.md "E-mail"): with `SMTP_URL`
 * set, each respondent with an e-mail address gets the launch message once, and a reminder on the
 * survey's schedule while they have not submitted (reminder k is due `k × everyDays` after launch, or
 * after `opensAt` when later; at most `max`; when several are due at once only the latest is sent).
 *
 * Exactly once per (survey, respondent, step), across restarts and any number of processes: before a
 * message is handed to SMTP its row in `survey_deliveries` is claimed by an insert the primary key makes
 * atomic; only the process whose insert succeeded sends, then records `sent` or `failed`. A process that
 * dies between claim and send leaves the row `claimed` — that person is not sent that step again (never
 * twice; the delivery list shows it), and a re-issued link or the download reaches them.
 *
 * The sender runs in the API process and in every `netloom worker` (the scheduler below, every
 * `NETLOOM_SURVEY_SCHEDULER_MS`, and at once after a launch), over the delivery table, which is the
 * queue of these messages with or without Redis.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { allEmployees } from '../../store/people.ts';
import type { Database } from '../../store/schema.ts';
import { claimDelivery, finishDelivery, listCollectingSurveys, listDeliveries, listRespondents, type SurveyRecord } from '../../store/surveys.ts';
import type { Directory } from '../people/directory.ts';
import { smtpMailer, type Mailer } from '../mail.ts';
import { loadSurvey } from './access.ts';
import { linkKey, pseudonymOf, respondentToken, respondentUrl } from './links.ts';
import type { EmailTemplates, Schedule } from './surveys.ts';

export interface MailDeps {
  db: Kysely<Database>;
  config: Config;
  now: () => number;
}

/** `{{name}}` and `{{link}}` of a template (plain text). */
export function render(template: string, values: { name: string; link: string }): string {
  return template.replaceAll('{{name}}', values.name).replaceAll('{{link}}', values.link);
}

/** The step due now for a survey: `launch`, `reminder-<k>` (latest due), both, or none. */
export function dueSteps(s: SurveyRecord, now: number): string[] {
  const schedule = JSON.parse(s.schedule) as Schedule;
  if (s.status !== 'collecting' || !s.launched_at) return [];
  if (schedule.opensAt && Date.parse(schedule.opensAt) > now) return [];
  if (schedule.closesAt && Date.parse(schedule.closesAt) <= now) return [];
  const steps = ['launch'];
  const base = Math.max(Date.parse(s.launched_at), schedule.opensAt ? Date.parse(schedule.opensAt) : 0);
  const every = schedule.reminders.everyDays * 86_400_000;
  const k = Math.min(schedule.reminders.max, Math.floor((now - base) / every));
  if (k >= 1) steps.push(`reminder-${k}`);
  return steps;
}

export interface TickResult {
  sent: number;
  failed: number;
}

/** One pass: every message due now that nobody has claimed is claimed and sent by this worker. */
export async function mailTick(deps: MailDeps, mailer: Mailer, workerId: string, opts: { surveyId?: string; stopped?: () => boolean } = {}): Promise<TickResult> {
  const result = { sent: 0, failed: 0 };
  const key = await linkKey(deps.db, deps.config);
  for (const s of await listCollectingSurveys(deps.db)) {
    if (opts.surveyId && s.id !== opts.surveyId) continue;
    const steps = dueSteps(s, deps.now());
    if (steps.length === 0) continue;
    const templates = JSON.parse(s.email) as EmailTemplates;
    const people = new Map((await allEmployees(deps.db, s.dir)).map((p) => [p.employee_id, p]));
    const respondents = await listRespondents(deps.db, s.id);
    for (const step of steps) {
      const template = step === 'launch' ? templates.launch : templates.reminder;
      const done = new Set((await listDeliveries(deps.db, s.id)).filter((d) => d.step === step).map((d) => d.employee_id));
      for (const r of respondents) {
        if (opts.stopped?.()) return result;
        const person = people.get(r.employee_id);
        if (done.has(r.employee_id) || r.token_hash === null || !person?.email || person.status !== 'active') continue;
        if (step !== 'launch' && r.status === 'submitted') continue;
        const at = new Date(deps.now()).toISOString();
        if (!(await claimDelivery(deps.db, { survey_id: s.id, employee_id: r.employee_id, step, claimed_by: workerId, claimed_at: at }))) continue;
        const link = respondentUrl(deps.config, respondentToken(key, s.id, r.employee_id, r.token_gen));
        const keyOf = { survey_id: s.id, employee_id: r.employee_id, step };
        try {
          await mailer.send({ to: person.email, subject: render(template.subject, { name: person.name, link: '' }), text: render(template.body, { name: person.name, link }) });
          await finishDelivery(deps.db, keyOf, { status: 'sent', sent_at: new Date(deps.now()).toISOString(), error: null });
          result.sent++;
        } catch (err) {
          // the SMTP server's reply, without addresses or the link
          const why = String((err as { response?: unknown }).response ?? (err as Error).message ?? 'error').slice(0, 300).replaceAll(person.email, '<recipient>');
          await finishDelivery(deps.db, keyOf, { status: 'failed', sent_at: null, error: why });
          result.failed++;
        }
      }
    }
  }
  return result;
}

export interface SurveyMailScheduler {
  workerId: string;
  /** Runs a pass soon (after a launch). */
  poke(): void;
  stop(): Promise<void>;
}

/** Runs `mailTick` every `NETLOOM_SURVEY_SCHEDULER_MS` until stopped; null when e-mail is off. */
export function startSurveyMailer(deps: MailDeps, log: { warn(o: Record<string, unknown>, m: string): void; info(o: Record<string, unknown>, m: string): void }, mailer: Mailer | null = smtpMailer(deps.config)): SurveyMailScheduler | null {
  if (!mailer) return null;
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  const run = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = mailTick(deps, mailer, workerId, { stopped: () => stopped })
      .then((r) => {
        if (r.sent || r.failed) log.info({ workerId, sent: r.sent, failed: r.failed }, 'survey e-mail sent');
      })
      .catch((err: unknown) => log.warn({ err: { message: (err as Error).message } }, 'survey e-mail pass failed'))
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          run();
        }
      });
  };
  timer = setInterval(run, deps.config.surveys.schedulerMs);
  timer.unref();
  setImmediate(run);
  return {
    workerId,
    poke: run,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
      mailer.close();
    },
  };
}

/** `GET /surveys/:id/deliveries`: every message's state (pseudonyms in pseudonymised surveys). */
export async function listDeliveryStates(deps: Omit<MailDeps, 'now'>, dir: Directory, id: string) {
  const { survey } = await loadSurvey(deps.db, dir, id, 'read');
  const key = survey.privacy === 'pseudonymised' ? await linkKey(deps.db, deps.config) : null;
  return {
    enabled: deps.config.surveys.smtpUrl !== null,
    deliveries: (await listDeliveries(deps.db, id)).map((d) => ({
      employeeId: key ? pseudonymOf(key, id, d.employee_id) : d.employee_id,
      step: d.step,
      status: d.status,
      claimedAt: d.claimed_at,
      sentAt: d.sent_at,
      error: d.error,
    })),
  };
}
