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
 * Scheduled on a job queue (issue 21 item 4): BullMQ on Redis when `REDIS_URL` is set, else the
 * `survey_mail_tasks` table (store/survey-mail-tasks.ts). Every process with e-mail on (the API and each
 * `netloom worker`) runs the scheduler pass — every `NETLOOM_SURVEY_SCHEDULER_MS` and at once after a
 * launch it queues a task per (survey, step) due with someone still to send to — and a consumer that runs
 * the tasks. A worker killed in the middle of a task leaves it to its lease (NETLOOM_SURVEY_MAIL_LEASE_MS);
 * another worker then runs it again and skips everyone already claimed.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { allEmployees } from '../../store/people.ts';
import type { Database } from '../../store/schema.ts';
import { claimDelivery, finishDelivery, getSurvey, listCollectingSurveys, listDeliveries, listRespondents, type SurveyRecord } from '../../store/surveys.ts';
import { RedisMailQueue, TableMailQueue, type MailQueue, type MailTask, type MailTaskRun } from '../../store/survey-mail-tasks.ts';
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

/** Who of a survey still needs `step`: respondents with a link, an active person with an address, no delivery of it yet (reminders: not submitted). */
async function recipients(deps: MailDeps, s: SurveyRecord, step: string) {
  const people = new Map((await allEmployees(deps.db, s.dir)).map((p) => [p.employee_id, p]));
  const done = new Set((await listDeliveries(deps.db, s.id)).filter((d) => d.step === step).map((d) => d.employee_id));
  const out: { respondent: Awaited<ReturnType<typeof listRespondents>>[number]; email: string; name: string }[] = [];
  for (const r of await listRespondents(deps.db, s.id)) {
    const person = people.get(r.employee_id);
    if (done.has(r.employee_id) || r.token_hash === null || !person?.email || person.status !== 'active') continue;
    if (step !== 'launch' && r.status === 'submitted') continue;
    out.push({ respondent: r, email: person.email, name: person.name });
  }
  return out;
}

/**
 * The scheduler's pass: every (collecting survey, step due now) with someone still to send to becomes a
 * task on the queue (idempotent: a queued or running task is not queued twice). Cheap and safe to run in
 * every process, as often as `NETLOOM_SURVEY_SCHEDULER_MS`.
 */
export async function scheduleDue(deps: MailDeps, queue: MailQueue): Promise<number> {
  let queued = 0;
  for (const s of await listCollectingSurveys(deps.db)) {
    for (const step of dueSteps(s, deps.now())) {
      if ((await recipients(deps, s, step)).length === 0) continue;
      await queue.add({ surveyId: s.id, step });
      queued++;
    }
  }
  return queued;
}

/**
 * A task: sends `step` of the survey to everyone who still needs it, each message claimed in the delivery
 * table first (only the process whose claim succeeded sends). Stops when the task is no longer this
 * worker's (`run.stillOurs()`: stopping, or taken over after a lapsed lease) — what it sent is recorded.
 */
export async function sendStep(deps: MailDeps, mailer: Mailer, workerId: string, task: MailTask, run: MailTaskRun = { stillOurs: () => true }): Promise<TickResult> {
  const result = { sent: 0, failed: 0 };
  const s = await getSurvey(deps.db, task.surveyId);
  // the schedule may have changed since the task was queued (closed, paused, reminders edited)
  if (!s || !dueSteps(s, deps.now()).includes(task.step)) return result;
  const templates = JSON.parse(s.email) as EmailTemplates;
  const template = task.step === 'launch' ? templates.launch : templates.reminder;
  const key = await linkKey(deps.db, deps.config);
  for (const { respondent: r, email, name } of await recipients(deps, s, task.step)) {
    if (!run.stillOurs()) return result;
    const at = new Date(deps.now()).toISOString();
    if (!(await claimDelivery(deps.db, { survey_id: s.id, employee_id: r.employee_id, step: task.step, claimed_by: workerId, claimed_at: at }))) continue;
    const link = respondentUrl(deps.config, respondentToken(key, s.id, r.employee_id, r.token_gen));
    const keyOf = { survey_id: s.id, employee_id: r.employee_id, step: task.step };
    try {
      await mailer.send({ to: email, subject: render(template.subject, { name, link: '' }), text: render(template.body, { name, link }) });
      await finishDelivery(deps.db, keyOf, { status: 'sent', sent_at: new Date(deps.now()).toISOString(), error: null });
      result.sent++;
    } catch (err) {
      // the SMTP server's reply, without addresses or the link
      const why = String((err as { response?: unknown }).response ?? (err as Error).message ?? 'error').slice(0, 300).replaceAll(email, '<recipient>');
      await finishDelivery(deps.db, keyOf, { status: 'failed', sent_at: null, error: why });
      result.failed++;
    }
  }
  return result;
}

export interface SurveyMailScheduler {
  workerId: string;
  /** The queue the tasks travel on: BullMQ (`redis`) or the `survey_mail_tasks` table. */
  queue: 'redis' | 'table';
  /** Schedules soon (after a launch). */
  poke(): void;
  stop(): Promise<void>;
}

type MailLog = { warn(o: Record<string, unknown>, m: string): void; info(o: Record<string, unknown>, m: string): void };

/** The queue survey e-mail tasks travel on: BullMQ with REDIS_URL, else the table (store/survey-mail-tasks.ts). */
export function openMailQueue(deps: MailDeps, log: MailLog): MailQueue {
  // leases are real time (deps.now is the schedule's clock, which tests move)
  const timing = { leaseMs: deps.config.surveys.mailLeaseMs, pollMs: Math.min(1_000, deps.config.surveys.schedulerMs), now: Date.now };
  if (!deps.config.redisUrl) return new TableMailQueue(deps.db, timing);
  let last = 0;
  return new RedisMailQueue(deps.config.redisUrl, deps.config.embed.redisPrefix, timing, (err) => {
    if (Date.now() - last < 10_000) return; // one line per 10 s while Redis is away
    last = Date.now();
    log.warn({ err: { message: err.message } }, 'survey e-mail queue: Redis error');
  });
}

/**
 * Survey e-mail in this process (API or `netloom worker`), null when e-mail is off: the scheduler pass
 * (`scheduleDue`) every `NETLOOM_SURVEY_SCHEDULER_MS` and at once when poked, and a consumer running the
 * queue's tasks (`sendStep`).
 */
export function startSurveyMailer(deps: MailDeps, log: MailLog, mailer: Mailer | null = smtpMailer(deps.config)): SurveyMailScheduler | null {
  if (!mailer) return null;
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const queue = openMailQueue(deps, log);
  const consumer = queue.consume(workerId, async (task, run) => {
    const r = await sendStep(deps, mailer, workerId, task, run);
    if (r.sent || r.failed) log.info({ workerId, surveyId: task.surveyId, step: task.step, sent: r.sent, failed: r.failed }, 'survey e-mail sent');
  });
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = scheduleDue(deps, queue)
      .then(() => undefined)
      .catch((err: unknown) => log.warn({ err: { message: (err as Error).message } }, 'survey e-mail scheduling failed'))
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          run();
        }
      });
  };
  const timer = setInterval(run, deps.config.surveys.schedulerMs);
  timer.unref();
  void queue.ready(5_000).then(run);
  return {
    workerId,
    queue: queue.kind,
    poke: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await consumer.close();
      await queue.close();
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
