/**
 * Surveys, links, responses and tracking of the public API (docs/spec/decisions.md §9;
 * docs/api/people-and-surveys.md):
 *   GET/POST /surveys     GET/PUT/DELETE /surveys/:id     POST /surveys/:id/copy          (surveys:*)
 *   GET/PUT /surveys/:id/shares     DELETE /surveys/:id/shares/:userId                     (surveys:*)
 *   GET /surveys/:id/links?format=json|csv|xlsx   POST /surveys/:id/links/:employeeId/(reissue|revoke)
 *   GET /surveys/:id/tracking   GET /surveys/:id/deliveries                               (surveys:read)
 *   GET /surveys/:id/responses   PUT/DELETE /surveys/:id/responses/:employeeId            (responses:*)
 *   POST /surveys/:id/networks (generate networks, or preview with dryRun)   (surveys:write, networks:write)
 *   POST /surveys/:id/compare (this wave's network against the previous wave's)   (surveys:read, networks:read)
 * Registered twice (http/route-surface.ts): under /api/v2 for credentials with scopes, and under /app/api
 * for the web application (session cookie + CSRF; `{ surface: 'web' }`), with the same schemas and handlers.
 * Thin: the caller's directory, one domain command, present.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../http/app-type.ts';
import { checkedByDomain } from '../http/route-contract.ts';
import { contentDisposition } from '../http/upload.ts';
import { surfaceOf, type SurfaceOptions } from '../http/route-surface.ts';
import { directoryOf, type Directory } from '../domain/people/directory.ts';
import { listShares, shareSurvey, unshareSurvey } from '../domain/surveys/access.ts';
import { changeLink, linksFile, listLinks } from '../domain/surveys/distribution.ts';
import { listDeliveryStates } from '../domain/surveys/mailer.ts';
import { deleteResponse, enterResponse, listResponses, tracking } from '../domain/surveys/responses.ts';
import { generateNetworks } from '../domain/surveys/generate.ts';
import { compareWaves } from '../domain/surveys/compare-waves.ts';
import { withDisconnect } from '../http/metric-reply.ts';
import { copySurvey, createSurvey, deleteSurvey, getSurveyResource, listSurveys, updateSurvey } from '../domain/surveys/surveys.ts';
import {
  DeletedSchema,
  problemResponses,
  ref,
  DeliveriesSchema,
  ResponseBody,
  ResponseDeletedSchema,
  ResponseListSchema,
  ResponseSchema,
  SurveyBody,
  SurveyCompareBody,
  SurveyCompareSchema,
  SurveyCopyBody,
  SurveyLinkSchema,
  SurveyLinksSchema,
  SurveyListSchema,
  SurveyNetworksBody,
  SurveyNetworksPreviewSchema,
  SurveyNetworksResultSchema,
  SurveySchema,
  SurveyShareBody,
  SurveySharesSchema,
  TrackingSchema,
} from '@netloom/protocol/http';

const Id = Type.Object({ id: Type.String({ maxLength: 64 }) });
const IdEmployee = Type.Object({ id: Type.String({ maxLength: 64 }), employeeId: Type.String({ maxLength: 128 }) });
const IdUser = Type.Object({ id: Type.String({ maxLength: 64 }), userId: Type.String({ maxLength: 64 }) });
const PageQuery = Type.Object({ limit: Type.Optional(Type.String({ maxLength: 9, description: '1 to 500, default 100' })), offset: Type.Optional(Type.String({ maxLength: 12 })) }, { additionalProperties: false });
const LinksQuery = Type.Object({ format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv'), Type.Literal('xlsx')], { description: 'default json' })) }, { additionalProperties: false });

export async function surveyRoutes(app: App, opts: SurfaceOptions): Promise<void> {
  const deps = { db: app.database.db, config: app.config };
  const surface = surfaceOf(opts);
  const dirOf = (request: FastifyRequest): Directory => directoryOf(surface.principal(request));
  /** A handler that answers what `command` answers for the caller's directory and the survey of the path. */
  const onSurvey =
    <T>(command: (d: typeof deps, dir: Directory, id: string) => Promise<T>) =>
    (request: FastifyRequest & { params: { id: string } }): Promise<T> =>
      command(deps, dirOf(request), request.params.id);
  const surveys = surface.config('surveys');
  const responses = surface.config('responses');
  const on = surface.schema;
  const tags = ['surveys'];
  const rtags = ['responses'];

  app.get('/surveys', { config: surveys, schema: on({ summary: 'Your surveys (own and shared; an organization credential: all of the organization)', tags, response: { 200: ref(SurveyListSchema), ...problemResponses(403) } }) }, async (request) => ({
    surveys: await listSurveys(deps, dirOf(request)),
  }));

  app.post(
    '/surveys',
    { config: surveys, validatorCompiler: checkedByDomain, schema: on({ summary: 'Create a survey (a draft)', tags, body: ref(SurveyBody), response: { 201: ref(SurveySchema), ...problemResponses(403) } }) },
    async (request, reply) => reply.code(201).send(await createSurvey(deps, dirOf(request), request.body)),
  );

  app.get('/surveys/:id', { config: surveys, schema: on({ summary: 'A survey', tags, params: Id, response: { 200: ref(SurveySchema), ...problemResponses(403, 404) } }) }, onSurvey(getSurveyResource));

  app.put(
    '/surveys/:id',
    {
      config: surveys,
      validatorCompiler: checkedByDomain,
      schema: on({
        summary: 'Change a survey (only what is sent); `status` launches (collecting), pauses (offline), resumes, completes',
        description: 'Question changes after launch make a new version (answers keep the version they answered). Privacy may only become stricter after launch. Launch is 400 without questions or respondents.',
        tags,
        params: Id,
        body: ref(SurveyBody),
        response: { 200: ref(SurveySchema), ...problemResponses(403, 404, 409) },
      }),
    },
    async (request) => {
      const survey = await updateSurvey(deps, dirOf(request), request.params.id, request.body);
      if (survey.status === 'collecting') app.surveyMailer.poke();
      return survey;
    },
  );

  app.delete('/surveys/:id', { config: surveys, schema: on({ summary: 'Delete a survey with its answers and links (owner)', tags, params: Id, response: { 200: ref(DeletedSchema), ...problemResponses(403, 404) } }) }, onSurvey(deleteSurvey));

  app.post(
    '/surveys/:id/copy',
    {
      config: surveys,
      validatorCompiler: checkedByDomain,
      schema: on({ summary: 'Copy a survey into a new draft, or (wave: true) as its next wave', tags, params: Id, body: ref(SurveyCopyBody), response: { 201: ref(SurveySchema), ...problemResponses(403, 404) } }),
    },
    async (request, reply) => reply.code(201).send(await copySurvey(deps, dirOf(request), request.params.id, request.body)),
  );

  app.post(
    '/surveys/:id/networks',
    {
      config: surveys,
      validatorCompiler: checkedByDomain,
      schema: on({
        summary: 'Generate networks from the answers (one per relationship question, optionally combined); run again to update them',
        description:
          'Nodes are the roster (id employeeId — the pseudonym in pseudonymised surveys —, `name`, the chosen custom fields, attribute answers, `Responded`); edges are nominations (`Weight` from the rating). `nonRespondents` decides what happens to people who did not answer. Running it again updates the same networks (same `_id`, new `networkUUID`). Before the survey is completed the networks are preliminary. `dryRun: true` stores nothing and answers the node and edge counts under every non-respondent mode (200). Needs `networks:write` too (not for a dry run).',
        tags,
        params: Id,
        body: ref(SurveyNetworksBody),
        response: { 200: ref(SurveyNetworksPreviewSchema), 201: ref(SurveyNetworksResultSchema), ...problemResponses(403, 404, 409) },
      }),
    },
    async (request, reply) => {
      const out = await generateNetworks(deps, dirOf(request), request.params.id, request.body);
      return reply.code(out.status).send(out.body);
    },
  );

  app.post(
    '/surveys/:id/compare',
    {
      config: surface.config('surveys', 'read'),
      schema: on({
        summary: "Compare this wave with the previous one: a question's network in both waves, through POST /networks/compare",
        description:
          '`a` is the previous wave (`previousWaveId`), `b` this survey. Needs the networks of the question generated in both waves (409 otherwise, and for a first wave). Group changes never go below the larger of the two surveys\' minimum group sizes. Scopes `surveys:read` and `networks:read` (with `metrics` also `metrics:write`).',
        tags,
        params: Id,
        body: ref(SurveyCompareBody),
        response: { 200: ref(SurveyCompareSchema), ...problemResponses(400, 403, 404, 409, 422) },
      }),
    },
    async (request, reply) => {
      const dir = dirOf(request);
      const startedAt = Date.now() - reply.elapsedTime;
      return withDisconnect(reply, async (signal) => ({ json: await compareWaves({ ...app.metricRunDeps, log: request.log }, dir, request.params.id, request.body, { signal, startedAt }) }));
    },
  );

  app.get('/surveys/:id/shares', { config: surveys, schema: on({ summary: 'Who the survey is shared with', tags, params: Id, response: { 200: ref(SurveySharesSchema), ...problemResponses(403, 404) } }) }, async (request) => ({
    shares: await listShares(deps.db, dirOf(request), request.params.id),
  }));

  app.put(
    '/surveys/:id/shares',
    { config: surveys, schema: on({ summary: 'Share the survey with a member of your organization (View or Edit; owner)', tags, params: Id, body: ref(SurveyShareBody), response: { 200: ref(SurveySharesSchema), ...problemResponses(403, 404) } }) },
    async (request) => ({ shares: await shareSurvey(deps.db, dirOf(request), request.params.id, request.body) }),
  );

  app.delete('/surveys/:id/shares/:userId', { config: surveys, schema: on({ summary: 'Stop sharing the survey with a user (owner)', tags, params: IdUser, response: { 200: ref(SurveySharesSchema), ...problemResponses(403, 404) } }) }, async (request) => ({
    shares: await unshareSurvey(deps.db, dirOf(request), request.params.id, request.params.userId),
  }));

  app.get(
    '/surveys/:id/links',
    {
      config: surveys,
      schema: on({
        summary: "The respondents' links (name, email, employeeId, link, status) as JSON, CSV or Excel (Edit access)",
        tags,
        params: Id,
        querystring: LinksQuery,
        response: {
          200: {
            description: 'The links',
            content: {
              'application/json': { schema: ref(SurveyLinksSchema) },
              'text/csv': { schema: { type: 'string' } },
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string', format: 'binary' } },
            },
          },
          ...problemResponses(403, 404, 409),
        },
      }),
    },
    async (request, reply) => {
      const format = request.query.format ?? 'json';
      reply.header('cache-control', 'private, no-store');
      if (format === 'json') return reply.type('application/json; charset=utf-8').send({ links: await listLinks(deps, dirOf(request), request.params.id) });
      const f = await linksFile(deps, dirOf(request), request.params.id, format);
      reply.header('content-disposition', contentDisposition(f.filename, f.filename));
      return reply.type(f.contentType).send(f.body);
    },
  );

  app.post(
    '/surveys/:id/links/:employeeId/reissue',
    { config: surveys, schema: on({ summary: "A new link for one respondent (the old one stops working; audited)", tags, params: IdEmployee, response: { 200: ref(SurveyLinkSchema), ...problemResponses(403, 404) } }) },
    async (request) => changeLink(deps, dirOf(request), request.params.id, request.params.employeeId, false),
  );

  app.post(
    '/surveys/:id/links/:employeeId/revoke',
    { config: surveys, schema: on({ summary: "Withdraw one respondent's link (audited)", tags, params: IdEmployee, response: { 200: ref(SurveyLinkSchema), ...problemResponses(403, 404) } }) },
    async (request) => changeLink(deps, dirOf(request), request.params.id, request.params.employeeId, true),
  );

  app.get('/surveys/:id/tracking', { config: surveys, schema: on({ summary: 'Response rate, confidence band, groups, who has not started, e-mail sent', tags, params: Id, response: { 200: ref(TrackingSchema), ...problemResponses(403, 404) } }) }, onSurvey(tracking));

  app.get('/surveys/:id/deliveries', { config: surveys, schema: on({ summary: 'E-mail deliveries of the survey (launch and reminders) and their state', tags, params: Id, response: { 200: ref(DeliveriesSchema), ...problemResponses(403, 404) } }) }, onSurvey(listDeliveryStates));

  app.get(
    '/surveys/:id/responses',
    { config: responses, validatorCompiler: checkedByDomain, schema: on({ summary: 'Responses: people with at least one saved answer, paged', tags: rtags, params: Id, querystring: PageQuery, response: { 200: ref(ResponseListSchema), ...problemResponses(403, 404) } }) },
    async (request) => listResponses(deps, dirOf(request), request.params.id, request.query),
  );

  app.put(
    '/surveys/:id/responses/:employeeId',
    {
      config: responses,
      validatorCompiler: checkedByDomain,
      schema: on({ summary: "Owner entry: save answers on a respondent's behalf (audited, enteredBy)", tags: rtags, params: IdEmployee, body: ref(ResponseBody), response: { 200: ref(ResponseSchema), ...problemResponses(403, 404, 409, 410) } }),
    },
    async (request) => enterResponse(deps, dirOf(request), request.params.id, request.params.employeeId, request.body),
  );

  app.delete(
    '/surveys/:id/responses/:employeeId',
    { config: responses, schema: on({ summary: "Erase a respondent's answers in this survey (audited)", tags: rtags, params: IdEmployee, response: { 200: ref(ResponseDeletedSchema), ...problemResponses(403, 404) } }) },
    async (request) => deleteResponse(deps, dirOf(request), request.params.id, request.params.employeeId),
  );
}
