/**
 * Checks real answers against the OpenAPI document (docs/spec/contract.md): every call names its
 * operation (`'GET /api/v2/networks/{id}'`), goes over HTTP to a listening server, and its answer is
 * checked — the status is listed for the operation, the content type is one the status documents, and a
 * JSON body is valid against that schema (JSON Schema 2020-12, `components.schemas` by reference).
 * `missing()` lists the document's operations no call exercised.
 */
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** JSON body (serialized here). */
  json?: unknown;
  /** Any other body (FormData, bytes, text) with its own headers. */
  body?: BodyInit;
}

export interface Answer {
  status: number;
  headers: Headers;
  contentType: string;
  text: string;
  /** Parsed body of a JSON answer (undefined otherwise). */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const pointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

export class ContractChecker {
  readonly mismatches: string[] = [];
  readonly exercised = new Map<string, Set<number>>();
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  readonly doc: Json;
  readonly baseUrl: string;

  constructor(doc: Json, baseUrl: string) {
    this.doc = doc;
    this.baseUrl = baseUrl;
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi.json', components: doc.components ?? {} });
  }

  /** Every operation of the document, as `METHOD path`. */
  operations(): string[] {
    const out: string[] = [];
    for (const [path, ops] of Object.entries<Json>(this.doc.paths ?? {})) for (const m of Object.keys(ops)) if (METHODS.includes(m)) out.push(`${m.toUpperCase()} ${path}`);
    return out.sort();
  }

  missing(): string[] {
    return this.operations().filter((op) => !this.exercised.has(op));
  }

  private validator(op: string, status: string, media: string, schema: Json): ValidateFunction {
    const key = `${op} ${status} ${media}`;
    let v = this.validators.get(key);
    if (!v) {
      // refs in the document point at #/components/...: resolve them against the registered components
      const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')) as Json;
      v = this.ajv.compile(rebased);
      this.validators.set(key, v);
    }
    return v;
  }

  /** Sends the call and checks its answer against the document; returns the answer. */
  async call(op: string, opts: CallOptions = {}): Promise<Answer> {
    const [method, template] = op.split(' ');
    const operation = this.doc.paths?.[template]?.[method.toLowerCase()] as Json | undefined;
    let url = template.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const v = opts.params?.[name];
      if (v === undefined) throw new Error(`${op}: no value for path parameter ${name}`);
      return encodeURIComponent(v);
    });
    if (opts.query) url += `?${new URLSearchParams(opts.query).toString()}`;
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    let body = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.baseUrl + url, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    const contentType = (res.headers.get('content-type') ?? '').split(';')[0].trim();
    const isJson = /^application\/([\w.+-]+\+)?json$/.test(contentType);
    let json: unknown;
    if (isJson && text !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        this.mismatches.push(`${op} → ${res.status}: body is not JSON although ${contentType}`);
      }
    }
    const answer: Answer = { status: res.status, headers: res.headers, contentType, text, json };
    if (!operation) {
      this.mismatches.push(`${op}: not an operation of the document`);
      return answer;
    }
    const seen = this.exercised.get(op) ?? new Set<number>();
    seen.add(res.status);
    this.exercised.set(op, seen);
    const response = (operation.responses as Json)[String(res.status)] as Json | undefined;
    if (!response) {
      this.mismatches.push(`${op} → ${res.status}: status not listed (listed: ${Object.keys(operation.responses).join(', ')}); body ${text.slice(0, 200)}`);
      return answer;
    }
    const content = response.content as Json | undefined;
    if (!content) {
      if (text !== '') this.mismatches.push(`${op} → ${res.status}: the document lists no content but the answer has ${contentType} ${text.slice(0, 100)}`);
      return answer;
    }
    const media = content[contentType] as Json | undefined;
    if (!media) {
      this.mismatches.push(`${op} → ${res.status}: content type ${contentType || '(none)'} not documented (documented: ${Object.keys(content).join(', ')})`);
      return answer;
    }
    if (isJson && media.schema) {
      const v = this.validator(op, String(res.status), contentType, media.schema as Json);
      if (!v(json)) {
        const errs = (v.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
        this.mismatches.push(`${op} → ${res.status}: body invalid against #/paths/${pointer(template)}/${method.toLowerCase()}/responses/${res.status}: ${errs.join('; ')}`);
      }
    }
    return answer;
  }

  /**
   * Ends a scenario: fails listing every call that got another status than the scenario expected, every
   * answer that differs from the document and every operation not exercised; else returns a summary line.
   */
  report(unexpected: readonly string[], name: string): string {
    const missing = this.missing();
    const problems = [
      unexpected.length ? `${unexpected.length} calls answered another status than the scenario expects:\n${unexpected.join('\n')}` : '',
      this.mismatches.length ? `${this.mismatches.length} answers differ from the document:\n${this.mismatches.join('\n')}` : '',
      missing.length ? `${missing.length} operations of the document were not exercised:\n${missing.join('\n')}` : '',
    ].filter(Boolean);
    if (problems.length) assert.fail(problems.join('\n\n'));
    const statuses = [...this.exercised.values()].reduce((n, s) => n + s.size, 0);
    return `${name}: ${this.operations().length} operations, ${statuses} (operation, status) pairs checked, 0 mismatches`;
  }
}
