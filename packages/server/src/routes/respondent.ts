/**
 * The respondent API behind the `/s/<token>` pages (docs/spec/decisions.md §9, "Respondent links";
 * docs/api/people-and-surveys.md, "Respondent API"). No account and no credential: the link token in the
 * path is the respondent's only key (never logged: http/log-redact.ts).
 *   GET    /s/api/:token                         the survey as the respondent sees it, their answers
 *   GET    /s/api/:token/roster?q=&limit=&offset= the people they can name (no sensitive field)
 *   PUT    /s/api/:token/answers/:questionId     { value } saved as given (idempotent)
 *   DELETE /s/api/:token/answers/:questionId     clears an answer
 *   POST   /s/api/:token/submit                  { consent? } complete → submitted (editable until close)
 *   POST   /s/open-api/:openToken                { employeeId } → the respondent's own link (open link)
 * Link guessing is throttled per client address: an unknown link counts as a failed authentication
 * (http/auth-failures.ts), and an address over the limit gets 429 before any lookup. Each link may make
 * `NETLOOM_SURVEY_SAVES_PER_LINK_PER_HOUR` requests per hour (per instance).
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../http/app-type.ts';
import { checkedByDomain } from '../http/route-contract.ts';
import { HttpProblem } from '../http/error-codes.ts';
import { DomainError } from '../domain/errors.ts';
import { tokenHash } from '../domain/surveys/links.ts';
import { openLink, openLinkEnter, respondentClear, respondentRoster, respondentSave, respondentSubmit, respondentView, type Opened } from '../domain/surveys/respondent.ts';
import { AnswerBody, AnswerSavedSchema, OpenLinkResultSchema, problemResponses, ref, RespondentRosterSchema, RespondentViewSchema, SubmittedSchema } from '@netloom/protocol/http';

const Token = Type.Object({ token: Type.String({ maxLength: 128, description: 'The link token of `/s/<token>`.' }) });
const TokenQuestion = Type.Object({ token: Type.String({ maxLength: 128 }), questionId: Type.String({ maxLength: 64 }) });
const OpenToken = Type.Object({ openToken: Type.String({ maxLength: 128 }) });
const RosterQuery = Type.Object(
  { q: Type.Optional(Type.String({ maxLength: 200 })), limit: Type.Optional(Type.String({ maxLength: 9, description: '1 to 10000, default all' })), offset: Type.Optional(Type.String({ maxLength: 12 })) },
  { additionalProperties: false },
);
const SubmitBody = Type.Object({ consent: Type.Optional(Type.Boolean({ description: 'true when the survey asks for consent' })) }, { additionalProperties: false });

const WINDOW_MS = 3_600_000;
const MAX_TRACKED = 100_000;

export async function respondentRoutes(app: App): Promise<void> {
  const deps = { db: app.database.db, config: app.config, now: () => app.now() };
  const tags = ['respondent'];
  const security: [] = [];
  const perLink = new Map<string, { start: number; count: number }>();

  /** 429 for an address over the failure limit, or a link over its own request limit (`hash`: tokenHash of the link). */
  const throttle = (request: FastifyRequest, hash: string): void => {
    const refused = app.authFailures.refused(request.ip);
    if (refused) throw refused;
    // 128 bits of the token's SHA-256 (never the token itself)
    const key = hash.slice(0, 32);
    const now = app.now();
    let w = perLink.get(key);
    if (!w || now - w.start >= WINDOW_MS) {
      if (perLink.size >= MAX_TRACKED) for (const [k, v] of perLink) if (now - v.start >= WINDOW_MS || perLink.size >= MAX_TRACKED) perLink.delete(k);
      w = { start: now, count: 0 };
      perLink.set(key, w);
    }
    if (++w.count > app.config.surveys.requestsPerLinkPerHour) {
      const retry = String(Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000)));
      throw new HttpProblem('RATE_LIMITED', `too many requests with this link; retry in ${retry} s`, { headers: { 'retry-after': retry } });
    }
  };

  /** A link that does not exist counts against the address (and may turn into 429). */
  const failed = async (request: FastifyRequest, err: unknown): Promise<never> => {
    if (err instanceof DomainError && err.code === 'NOT_FOUND') {
      const limited = await app.authFailures.fail(request.ip);
      if (limited) throw limited;
    }
    throw err;
  };

  const opened = async (request: FastifyRequest, token: string): Promise<Opened> => {
    const hash = tokenHash(token);
    throttle(request, hash);
    try {
      return await openLink(deps, token, hash);
    } catch (err) {
      return failed(request, err);
    }
  };

  const common = { config: { auth: { skip: true } } };
  const linkProblems = problemResponses(400, 404, 409, 410, 429, 500);

  app.get('/s/api/:token', { ...common, schema: { summary: 'The survey as the respondent sees it, with their saved answers', tags, security, params: Token, response: { 200: ref(RespondentViewSchema), ...linkProblems } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return respondentView(deps, await opened(request, request.params.token));
  });

  app.get(
    '/s/api/:token/roster',
    { ...common, validatorCompiler: checkedByDomain, schema: { summary: 'The people the respondent can name: name, photo, non-sensitive fields', tags, security, params: Token, querystring: RosterQuery, response: { 200: ref(RespondentRosterSchema), ...linkProblems } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return respondentRoster(deps, await opened(request, request.params.token), request.query);
    },
  );

  app.put(
    '/s/api/:token/answers/:questionId',
    { ...common, validatorCompiler: checkedByDomain, schema: { summary: 'Save one answer as given (idempotent)', tags, security, params: TokenQuestion, body: ref(AnswerBody), response: { 200: ref(AnswerSavedSchema), ...problemResponses(400, 404, 409, 410, 413, 415, 429, 500) } } },
    async (request) => respondentSave(deps, await opened(request, request.params.token), request.params.questionId, request.body),
  );

  app.delete(
    '/s/api/:token/answers/:questionId',
    {
      ...common,
      schema: {
        summary: 'Clear one answer',
        tags,
        security,
        params: TokenQuestion,
        response: { 200: Type.Object({ questionId: Type.String(), deleted: Type.Literal(true) }, { additionalProperties: false }), ...problemResponses(400, 404, 409, 410, 429, 500) },
      },
    },
    async (request) => respondentClear(deps, await opened(request, request.params.token), request.params.questionId),
  );

  app.post(
    '/s/api/:token/submit',
    { ...common, validatorCompiler: checkedByDomain, schema: { summary: 'Submit (answers stay editable until the survey closes)', tags, security, params: Token, body: SubmitBody, response: { 200: ref(SubmittedSchema), ...problemResponses(400, 404, 409, 410, 413, 415, 429, 500) } } },
    async (request) => respondentSubmit(deps, await opened(request, request.params.token), request.body),
  );

  app.post(
    '/s/open-api/:openToken',
    {
      ...common,
      validatorCompiler: checkedByDomain,
      schema: {
        summary: "The open link: an employeeId → that respondent's own link",
        tags,
        security,
        params: OpenToken,
        body: Type.Object({ employeeId: Type.String({ maxLength: 128 }) }),
        response: { 200: ref(OpenLinkResultSchema), ...problemResponses(400, 404, 409, 410, 413, 415, 429, 500) },
      },
    },
    async (request) => {
      throttle(request, tokenHash(request.params.openToken));
      try {
        return await openLinkEnter(deps, request.params.openToken, request.body);
      } catch (err) {
        return failed(request, err);
      }
    },
  );
}
