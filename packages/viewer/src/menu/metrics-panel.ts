/**
 * The Metrics panel: runs a node metric on the service as a job of this session (docs/embedding-api.md
 * "Metric jobs") and shows how far it is — a progress bar with the percentage, the time left ("about
 * 2 min left") and Cancel — then adds the values as node attributes for this session (usable in Color,
 * Size and Filter; the network itself is not changed, except in owner-mode Explore with edit access, where
 * the service writes the values and the panel reads them back). Every run is a job: its bar reflects the kernel's
 * own progress, and even a quick run shows that something is happening. The run lives in this object,
 * not in the DOM, so closing and reopening the panel shows it still going. Cancel frees the service's
 * worker and brings the panel back to its ready state with a notice; a failure shows the problem's message.
 */
import { etaText, type ViewerJob } from '@netloom/protocol';

export { etaText };
import type { OfferedMetric } from '@netloom/protocol/http';
import { toWireError } from '../errors.ts';
import { setNodeAttribute } from './attrs.ts';
import { button, field, h, select, type PanelHost } from './kit.ts';

/** How often a running job is asked for its progress (the service updates it at least every 2 s). */
export const POLL_MS = 500;

/** A network-level metric's number as the panel shows it, with its parameters and how long it took. */
export interface NetworkResult { metric: string; value: number; parameters: Record<string, unknown>; ms: number | null }

/** "Diameter: 5" (whole numbers as they are, others to 4 significant digits). */
export function networkResultText(r: Pick<NetworkResult, 'metric' | 'value'>): string {
  const v = r.value;
  return `${metricTitle(r.metric)}: ${Number.isInteger(v) ? v.toLocaleString('en') : Number(v.toPrecision(4)).toLocaleString('en', { maximumSignificantDigits: 4 })}`;
}

/** "default parameters · 0.4 s" */
export function networkResultDetail(r: Pick<NetworkResult, 'parameters' | 'ms'>): string {
  const params = Object.keys(r.parameters).length ? Object.entries(r.parameters).map(([k, v]) => `${k} ${String(v)}`).join(', ') : 'default parameters';
  return r.ms === null ? params : `${params} · ${r.ms < 1000 ? `${Math.round(r.ms)} ms` : `${(r.ms / 1000).toFixed(1)} s`}`;
}

/**
 * The metrics offered (run with their default parameters through the viewer API): the service's list,
 * GET /api/v2/embed/viewer/metrics — the engine registry's, so a metric added there appears here with no
 * edit of the viewer. Read once per viewer, when the panel first opens.
 */
let offered: OfferedMetric[] | null = null;

/** The service's list of offered metrics (their ids and titles), as read by the panel. */
export function setOfferedMetrics(list: OfferedMetric[]): void {
  offered = list;
}

export function metricTitle(id: string): string {
  return offered?.find((m) => m.id === id)?.title ?? id;
}


/** The status line of a running job: "Betweenness centrality: 42 % — about 2 min left" (no break inside "42 %"). */
export function jobText(job: Pick<ViewerJob, 'status' | 'progress' | 'etaSeconds' | 'metric'>): string {
  const title = metricTitle(job.metric);
  if (job.status === 'queued') return `${title}: waiting for a worker…`;
  return `${title}: ${Math.floor(job.progress * 100)}\u00a0% — ${etaText(job.etaSeconds)}`;
}

export class MetricsPanel {
  readonly host: PanelHost;
  /** The run in progress (queued or running), or null when the panel is ready. */
  job: ViewerJob | null = null;
  #selected = '';
  #loading: Promise<void> | null = null;
  #starting = false;
  #cancelling = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Network-level numbers computed in this session, newest first (one per metric). */
  results: NetworkResult[] = [];
  /** Resolves with the attribute names added when the current run ends ([] when cancelled or failed). */
  #done: ((names: string[]) => void) | null = null;

  constructor(host: PanelHost) {
    this.host = host;
  }

  /** Reads the offered metrics once; the panel shows a line until they are in (or why they are not). */
  #load(): void {
    if (this.#loading) return;
    this.#loading = this.host.ctx.api.offeredMetrics().then(
      (list) => {
        setOfferedMetrics(list);
        this.#rerender();
      },
      (err) => {
        this.#loading = null;
        this.host.say('metrics', toWireError(err).message, true);
      },
    );
  }

  render(b: HTMLElement): void {
    if (!offered) {
      this.#load();
      b.append(h('p', { class: 'nl-hint', 'data-metrics-loading': 'true' }, 'Loading the metrics…'));
      return;
    }
    if (!this.#selected || !offered.some((m) => m.id === this.#selected)) this.#selected = offered[0]?.id ?? '';
    const busy = this.job !== null || this.#starting;
    const s = select(offered.map((m) => ({ value: m.id, label: m.kind === 'network' ? `${m.title} (one number)` : m.title })), this.#selected, { 'aria-label': 'Metric', disabled: busy });
    s.addEventListener('change', () => (this.#selected = s.value));
    const run = button('Run', { 'data-action': 'run-metric', disabled: busy, onclick: () => void this.run(s.value) }, 'primary');
    b.append(h('p', { class: 'nl-hint' }, 'Computed by the service on this network; a node metric becomes a node attribute usable in Color, Size and Filter, a network-level one ("one number") is listed below. Long runs show their progress and can be cancelled.'), field('Metric', s), run);
    if (this.job) b.append(this.#progressBox(this.job));
    if (this.results.length) {
      b.append(h('section', { class: 'nl-section', 'aria-label': 'Network results' },
        h('h4', { class: 'nl-section-title' }, 'Network results'),
        h('ul', { class: 'nl-results' }, ...this.results.map((r) => h('li', { 'data-network-result': r.metric },
          h('strong', {}, networkResultText(r)), ' ', h('span', { class: 'nl-hint' }, networkResultDetail(r)))))));
    }
  }

  #progressBox(job: ViewerJob): HTMLElement {
    const pct = Math.floor(job.progress * 100);
    const cancel = button(this.#cancelling ? 'Cancelling…' : 'Cancel', { 'data-action': 'cancel-metric', disabled: this.#cancelling, onclick: () => void this.cancel() });
    return h('div', { class: 'nl-progress-box', 'data-metric-job': job.jobId, 'data-metric-job-status': job.status },
      h('div', { class: 'nl-row nl-progress-row' }, h('span', { class: 'nl-spinner', 'aria-hidden': 'true' }), h('p', { class: 'nl-status-line', 'data-metric-status': 'true' }, jobText(job)), cancel),
      h('progress', { class: 'nl-progress', max: 100, value: pct, 'aria-label': `${metricTitle(job.metric)} progress`, 'aria-valuetext': jobText(job), 'data-metric-progress': 'true' }));
  }

  /** The open Metrics panel, or null (closed, or another panel is open). */
  #panel(): HTMLElement | null {
    const panel = this.host.ctx.root.querySelector<HTMLElement>('.nl-panel[data-item="metrics"]');
    return panel && !panel.hidden ? panel : null;
  }

  #rerender(): void {
    if (this.#panel()) this.host.render();
  }

  /** Updates the bar in place while the panel is open (no re-render: focus stays where it is). */
  #show(job: ViewerJob): void {
    const panel = this.#panel();
    if (!panel) return;
    const box = panel.querySelector<HTMLElement>('[data-metric-job]');
    if (!box || box.dataset.metricJob !== job.jobId) return this.#rerender();
    box.dataset.metricJobStatus = job.status;
    const bar = box.querySelector<HTMLProgressElement>('[data-metric-progress]');
    const line = box.querySelector<HTMLElement>('[data-metric-status]');
    if (bar) {
      bar.value = Math.floor(job.progress * 100);
      bar.setAttribute('aria-valuetext', jobText(job));
    }
    if (line) line.textContent = jobText(job);
  }

  /** Runs a metric as a job; resolves with the attribute names added ([] when cancelled or failed). */
  async run(metricId: string): Promise<string[]> {
    if (this.job || this.#starting) return [];
    this.#selected = metricId;
    this.#starting = true;
    this.host.say('metrics', `Starting ${metricTitle(metricId)}…`);
    this.#rerender();
    let job: ViewerJob;
    try {
      const kind = offered?.find((m) => m.id === metricId)?.kind === 'network' ? 'network' : 'nodes';
      job = await this.host.ctx.api.startMetricJob(kind, metricId, {});
    } catch (err) {
      this.#starting = false;
      this.host.say('metrics', toWireError(err).message, true);
      this.#rerender();
      return [];
    } finally {
      this.#starting = false;
    }
    this.job = job;
    this.host.say('metrics', '');
    this.#rerender();
    const done = new Promise<string[]>((resolve) => (this.#done = resolve));
    void this.#follow(job);
    return done;
  }

  async #follow(job: ViewerJob): Promise<void> {
    if (job.status === 'queued' || job.status === 'running') {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        if (this.job?.jobId !== job.jobId) return;
        this.host.ctx.api.metricJob(job.jobId).then(
          (next) => {
            if (this.job?.jobId !== job.jobId) return;
            // progress never goes back (the service guarantees it; a reordered answer must not either)
            this.job = { ...next, progress: Math.max(next.progress, this.job.progress) };
            this.#show(this.job);
            void this.#follow(this.job);
          },
          (err) => this.#end([], toWireError(err).message, true),
        );
      }, POLL_MS);
      return;
    }
    await this.#finish(job);
  }

  async #finish(job: ViewerJob): Promise<void> {
    if (job.status === 'cancelled') return this.#end([], `${metricTitle(job.metric)} was cancelled; nothing was added.`, false);
    if (job.status === 'failed') return this.#end([], job.error?.detail ?? job.error?.message ?? job.error?.title ?? `${metricTitle(job.metric)} failed`, true);
    const result = job.result;
    if (typeof result === 'number') {
      const from = Date.parse(job.startedAt ?? job.createdAt), to = job.finishedAt ? Date.parse(job.finishedAt) : NaN;
      const r: NetworkResult = { metric: job.metric, value: result, parameters: {}, ms: Number.isFinite(to - from) ? Math.max(0, to - from) : null };
      this.results = [r, ...this.results.filter((x) => x.metric !== r.metric)];
      return this.#end([], networkResultText(r), false);
    }
    let values = typeof result === 'object' && result !== null && result.values ? result.values : null;
    const written = !values && typeof result === 'object' && result !== null && Array.isArray(result.attributes);
    if (written && typeof result === 'object' && result !== null && Array.isArray(result.attributes)) {
      // owner-mode Explore with edit access: the values were written to the stored network (a new
      // version); read them from it (this also moves the viewer onto that version for later saves)
      try {
        values = await this.#writtenValues(result.attributes);
      } catch (err) {
        return this.#end([], toWireError(err).message, true);
      }
    }
    if (!values) return this.#end([], 'the service returned no node values', true);
    const { model, engine } = this.host.ctx;
    const names = Object.keys(values);
    try {
      await this.host.task('metrics.result', () => {
        for (const name of names) {
          setNodeAttribute(model, name, values[name]);
          engine.layers = [...engine.layers, { id: `calc-${Date.now().toString(36)}-${name.replace(/\W+/g, '-')}`, operation: 'Calculate', attribute: name, hidden: false, readOnly: true, summary: `Metric ${job.metric}: ${name}` }];
        }
        return { layersChanged: true };
      });
    } catch (err) {
      return this.#end([], toWireError(err).message, true);
    }
    this.#end(names, `Added ${names.join(', ')}${written ? ' (also saved in the network)' : ''}. Use it in Color, Size or Filter.`, false);
  }

  /** The written attributes' values, by attribute then node id, read back from the stored network. */
  async #writtenValues(attributes: string[]): Promise<Record<string, Record<string, number | string>>> {
    const net = await this.host.ctx.api.network();
    const values: Record<string, Record<string, number | string>> = Object.fromEntries(attributes.map((a) => [a, {}]));
    for (const node of net.json.nodes as { id: unknown; attributes?: Record<string, unknown> }[]) {
      for (const a of attributes) {
        const v = node.attributes?.[a];
        if (typeof v === 'number' || typeof v === 'string') values[a][String(node.id)] = v;
      }
    }
    return values;
  }

  #end(names: string[], text: string, error: boolean): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.job = null;
    this.#cancelling = false;
    this.host.say('metrics', text, error);
    this.#rerender();
    const done = this.#done;
    this.#done = null;
    done?.(names);
  }

  /** Cancels the running job: the service frees its worker; the panel is ready again. */
  async cancel(): Promise<void> {
    const job = this.job;
    if (!job || this.#cancelling) return;
    this.#cancelling = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#rerender();
    try {
      const answer = await this.host.ctx.api.cancelMetricJob(job.jobId);
      // a job that finished just before the cancel arrived is answered as it finished
      await this.#finish(answer);
    } catch (err) {
      this.#end([], toWireError(err).message, true);
    }
  }
}
