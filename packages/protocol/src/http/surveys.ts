/**
 * Wire shapes of surveys, responses, tracking, links and the respondent API (docs/spec/decisions.md §9;
 * docs/api/people-and-surveys.md). Survey and answer bodies are checked by the server's domain/surveys
 * (every problem with its JSON pointer); these schemas document them and the answers.
 */
import { Type } from 'typebox';
import { ref } from './ref.ts';
import { NetworkCompareSchema } from './analysis.ts';

const DateTime = Type.String({ format: 'date-time' });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const SelectorSchema = Type.Union(
  [
    Type.Object({ all: Type.Literal(true) }, { additionalProperties: false }),
    Type.Object({ employeeIds: Type.Array(Type.String()) }, { additionalProperties: false }),
    Type.Object({ field: Type.String(), values: Type.Array(Type.Union([Type.String(), Type.Number()])) }, { additionalProperties: false }),
  ],
  { $id: 'PeopleSelector', description: '`{ all: true }` (every active person) | `{ employeeIds }` | `{ field, values }` (active people whose custom field holds one of the values).' },
);

const questionProps = {
  id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Stable id; kept when sent, else `q<n>`.' }),
  type: Type.Union([Type.Literal('relationship'), Type.Literal('singleChoice'), Type.Literal('multipleChoice'), Type.Literal('number'), Type.Literal('scale'), Type.Literal('text')]),
  text: Type.String(),
  required: Type.Boolean(),
  directed: Type.Optional(Type.Boolean({ description: 'relationship (default true)' })),
  minSelections: Type.Optional(Type.Integer({ minimum: 0 })),
  maxSelections: Type.Optional(Type.Integer({ minimum: 1 })),
  rating: Type.Optional(Type.Object({ labels: Type.Array(Type.String(), { minItems: 2, maxItems: 11 }), dontKnow: Type.Boolean({ description: 'labels[0] is "I don\'t know this person" (no tie)' }) }, { additionalProperties: false })),
  carryForwardFrom: Type.Optional(Type.String({ description: 'An earlier relationship question: only the people named there are offered.' })),
  allowWriteIns: Type.Optional(Type.Boolean()),
  noneOption: Type.Optional(Type.Boolean({ description: '"No one" is offered ([] then completes the question).' })),
  options: Type.Optional(Type.Array(Type.String())),
  min: Type.Optional(Type.Number()),
  max: Type.Optional(Type.Number()),
};

export const QuestionSchema = Type.Object({ ...questionProps, customField: Type.Optional(Type.String({ description: 'The custom field the answer is stored into.' })) }, { $id: 'SurveyQuestion', additionalProperties: false });

export const RespondentQuestionSchema = Type.Object(questionProps, { $id: 'RespondentQuestion', additionalProperties: false });

const Template = Type.Object({ subject: Type.String(), body: Type.String({ description: 'Text with `{{name}}` and `{{link}}`.' }) }, { additionalProperties: false });

const ScheduleSchema = Type.Object(
  {
    opensAt: Type.Optional(DateTime),
    closesAt: Type.Optional(DateTime),
    reminders: Type.Object({ everyDays: Type.Number({ exclusiveMinimum: 0, maximum: 60 }), max: Type.Integer({ minimum: 0, maximum: 10 }) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

const NonRespondents = Type.Union([Type.Literal('keep'), Type.Literal('drop'), Type.Literal('reconstruct'), Type.Literal('reciprocated')], {
  description:
    'keep: every person stays, with the ties others reported to them; drop: people who did not answer the question and their ties go; reconstruct: a non-respondent\'s ties are what others said of them, in both directions (edge attribute `Reconstructed`); reciprocated: only ties both ends named.',
});

const GenerateOptions = Type.Object(
  {
    questions: Type.Union([Type.Literal('each'), Type.Array(Type.String())]),
    combined: Type.Boolean(),
    nonRespondents: NonRespondents,
    minRating: Type.Optional(Type.Integer({ minimum: 1 })),
    fields: Type.Array(Type.String(), { description: 'The custom fields written as node attributes.' }),
    privacy: Type.Optional(Type.Union([Type.Literal('identified'), Type.Literal('confidential'), Type.Literal('pseudonymised')])),
    wave: Type.Optional(Type.Integer({ minimum: 1 })),
    status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('collecting'), Type.Literal('offline'), Type.Literal('completed')], { description: 'The survey status when generated.' })),
  },
  { $id: 'SurveyNetworkOptions', additionalProperties: false },
);

export const SurveyGeneratedSchema = Type.Object(
  {
    _id: Type.String({ description: 'The network.' }),
    question: Type.String({ description: 'The relationship question id, or `combined`.' }),
    options: ref(GenerateOptions),
    preliminary: Type.Boolean({ description: 'Generated before the survey was completed.' }),
    generatedAt: DateTime,
  },
  { $id: 'SurveyGeneratedNetwork', additionalProperties: false },
);

const Consent = Type.Object({ text: Type.String(), required: Type.Boolean() }, { additionalProperties: false });

export const SurveySchema = Type.Object(
  {
    _id: Type.String(),
    name: Type.String({ description: 'Never shown to respondents.' }),
    status: Type.Union([Type.Literal('draft'), Type.Literal('collecting'), Type.Literal('offline'), Type.Literal('completed')]),
    intro: Type.String({ description: 'Markdown.' }),
    consent: Type.Union([Consent, Type.Null()]),
    privacy: Type.Union([Type.Literal('identified'), Type.Literal('confidential'), Type.Literal('pseudonymised')]),
    minGroupSize: Type.Integer({ minimum: 3 }),
    roster: ref(SelectorSchema),
    respondents: Type.Union([ref(SelectorSchema), Type.Null()], { description: 'null = the roster.' }),
    questions: Type.Array(ref(QuestionSchema)),
    version: Type.Integer({ minimum: 1, description: 'Question version: +1 on every change of the questions after launch.' }),
    schedule: ScheduleSchema,
    email: Type.Object({ launch: Template, reminder: Template, enabled: Type.Boolean({ description: 'false: SMTP_URL is not set and nothing is e-mailed (download the links).' }) }, { additionalProperties: false }),
    openLink: Type.Object({ enabled: Type.Boolean(), url: Type.Optional(Type.String({ description: 'Shown to owners and editors.' })) }, { additionalProperties: false }),
    wave: Type.Integer({ minimum: 1 }),
    previousWaveId: Nullable(Type.String()),
    owner: Type.Object({ _id: Type.String(), name: Type.String() }, { additionalProperties: false }),
    access: Type.Union([Type.Literal('owner'), Type.Literal('edit'), Type.Literal('view')]),
    created: DateTime,
    modified: DateTime,
    launchedAt: Nullable(DateTime),
    closedAt: Nullable(DateTime),
    networks: Type.Array(ref(SurveyGeneratedSchema), { description: 'The networks generated from the survey (POST /surveys/:id/networks) and the options of their last generation.' }),
  },
  { $id: 'Survey', additionalProperties: false },
);

export const SurveyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'Required on create.' })),
    questions: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
    privacy: Type.Optional(Type.Union([Type.Literal('identified'), Type.Literal('confidential'), Type.Literal('pseudonymised')])),
    minGroupSize: Type.Optional(Type.Integer({ minimum: 3 })),
    roster: Type.Optional(ref(SelectorSchema)),
    respondents: Type.Optional(Type.Union([ref(SelectorSchema), Type.Null()])),
    intro: Type.Optional(Type.String()),
    consent: Type.Optional(Type.Union([Type.Object({ text: Type.String(), required: Type.Optional(Type.Boolean()) }), Type.Null()])),
    schedule: Type.Optional(Type.Object({}, { additionalProperties: true })),
    email: Type.Optional(Type.Object({ launch: Type.Optional(Template), reminder: Type.Optional(Template) })),
    openLink: Type.Optional(Type.Boolean()),
    status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('collecting'), Type.Literal('offline'), Type.Literal('completed')], { description: 'collecting = launch (400 without questions or respondents); offline; completed.' })),
  },
  { $id: 'SurveyBody', description: 'Create: name and questions required. PUT changes only what is sent.' },
);

export const SurveyListSchema = Type.Object({ surveys: Type.Array(ref(SurveySchema)) }, { $id: 'SurveyList', additionalProperties: false });

export const SurveyCopyBody = Type.Object({ name: Type.Optional(Type.String()), wave: Type.Optional(Type.Boolean({ description: 'true: the next wave (wave + 1, previousWaveId).' })) }, { $id: 'SurveyCopyBody', additionalProperties: false });

export const SurveyShareSchema = Type.Object(
  { userId: Type.String(), email: Type.String(), name: Type.String(), permission: Type.Union([Type.Literal('View'), Type.Literal('Edit')]), created: DateTime },
  { $id: 'SurveyShare', additionalProperties: false },
);
export const SurveySharesSchema = Type.Object({ shares: Type.Array(ref(SurveyShareSchema)) }, { $id: 'SurveyShares', additionalProperties: false });
export const SurveyShareBody = Type.Object({ email: Type.String(), permission: Type.Union([Type.Literal('View'), Type.Literal('Edit')]) }, { $id: 'SurveyShareBody', additionalProperties: false });

export const SurveyNetworksBody = Type.Object(
  {
    questions: Type.Optional(Type.Union([Type.Literal('each'), Type.Array(Type.String(), { minItems: 1 })], { description: 'Relationship question ids, or "each" (default).' })),
    combined: Type.Optional(Type.Boolean({ description: 'Also one combined network (edge attribute `Question`).' })),
    nonRespondents: Type.Optional(NonRespondents),
    minRating: Type.Optional(Type.Integer({ minimum: 1, maximum: 11, description: 'Ties rated below it are left out (1 = the lowest label that is not "I don\'t know"; the edge `Weight` uses the same unit).' })),
    fields: Type.Optional(Type.Array(Type.String(), { description: 'Custom field keys written as node attributes (default: every non-sensitive field). A sensitive field only when named, never in a pseudonymised survey.' })),
    dryRun: Type.Optional(Type.Boolean({ description: 'true: store nothing; answer the node and edge counts of every non-respondent mode (200).' })),
  },
  { $id: 'SurveyNetworksBody', additionalProperties: false },
);

export const SurveyNetworksResultSchema = Type.Object(
  {
    networks: Type.Array(
      Type.Object(
        {
          _id: Type.String(),
          name: Type.String(),
          question: Type.String({ description: 'The question id, or `combined`.' }),
          networkUUID: Type.String(),
          nodeCount: Type.Integer({ minimum: 0 }),
          edgeCount: Type.Integer({ minimum: 0 }),
          created: Type.Boolean({ description: 'false: an earlier generation\'s network was updated (same `_id`).' }),
        },
        { additionalProperties: false },
      ),
    ),
    preliminary: Type.Boolean({ description: 'The survey is not completed yet.' }),
    options: ref(GenerateOptions),
    generatedAt: DateTime,
  },
  { $id: 'SurveyNetworksResult', additionalProperties: false },
);

const Counts = Type.Object({ nodes: Type.Integer({ minimum: 0 }), edges: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });
export const SurveyNetworksPreviewSchema = Type.Object(
  {
    dryRun: Type.Literal(true),
    preliminary: Type.Boolean(),
    people: Type.Integer({ minimum: 0, description: 'People who can be nodes (the roster, and respondents outside it who answered).' }),
    respondents: Type.Integer({ minimum: 0, description: 'People asked.' }),
    options: ref(GenerateOptions),
    networks: Type.Array(
      Type.Object(
        {
          question: Type.String(),
          name: Type.String(),
          directed: Type.Boolean(),
          responded: Type.Integer({ minimum: 0 }),
          nodes: Type.Integer({ minimum: 0 }),
          edges: Type.Integer({ minimum: 0 }),
          modes: Type.Object({ keep: Counts, drop: Counts, reconstruct: Counts, reciprocated: Counts }, { additionalProperties: false, description: 'Counts under every non-respondent mode.' }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'SurveyNetworksPreview', additionalProperties: false },
);

export const SurveyCompareBody = Type.Object(
  {
    question: Type.Optional(Type.String({ minLength: 1, description: 'A relationship question id or "combined"; default: the first with a generated network in both waves.' })),
    attribute: Type.Optional(Type.String({ minLength: 1, description: 'Node attribute whose groups are compared (e.g. a custom field label such as `Team`).' })),
    metrics: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 8, description: 'Node-metric ids compared per node (scope `metrics:write` and the metrics plan).' })),
    minGroupSize: Type.Optional(Type.Integer({ minimum: 1, description: 'Never below the larger of the two surveys\' minimum group sizes.' })),
    metricEdgeWeights: Type.Optional(Type.Union([Type.Boolean(), Type.String({ minLength: 1 })])),
  },
  { $id: 'SurveyCompareBody', additionalProperties: false },
);

const WaveSide = Type.Object({ surveyId: Type.String(), wave: Type.Integer({ minimum: 1 }), networkId: Type.String(), name: Type.String() }, { additionalProperties: false });
export const SurveyCompareSchema = Type.Object(
  {
    question: Type.String({ description: 'The question compared (id, or `combined`).' }),
    minGroupSize: Type.Integer({ minimum: 1, description: 'The minimum group size the group changes were computed with.' }),
    a: WaveSide,
    b: WaveSide,
    comparison: ref(NetworkCompareSchema),
  },
  { $id: 'SurveyCompare', additionalProperties: false, description: '`a` = the previous wave, `b` = this survey; `comparison` as POST /networks/compare answers it.' },
);

const ResponseStatus = Type.Union([Type.Literal('notStarted'), Type.Literal('inProgress'), Type.Literal('submitted')]);

export const SurveyLinkSchema = Type.Object(
  { employeeId: Type.String(), name: Type.String(), email: Nullable(Type.String()), link: Nullable(Type.String({ description: 'null when revoked.' })), status: ResponseStatus },
  { $id: 'SurveyLink', additionalProperties: false },
);
export const SurveyLinksSchema = Type.Object({ links: Type.Array(ref(SurveyLinkSchema)) }, { $id: 'SurveyLinks', additionalProperties: false });

export const ResponseSchema = Type.Object(
  {
    employeeId: Type.String({ description: 'The pseudonym in pseudonymised surveys.' }),
    status: ResponseStatus,
    answers: Type.Record(Type.String(), Type.Unknown(), { description: '{ <questionId>: value }' }),
    versions: Type.Record(Type.String(), Type.Integer(), { description: '{ <questionId>: the question version answered }' }),
    submittedAt: Nullable(DateTime),
    enteredBy: Nullable(Type.String({ description: '`user:<id>` or `credential:<id>` of the last owner entry.' })),
  },
  { $id: 'SurveyResponse', additionalProperties: false },
);
export const ResponseListSchema = Type.Object(
  { total: Type.Integer({ minimum: 0 }), offset: Type.Integer({ minimum: 0 }), limit: Type.Integer({ minimum: 1 }), responses: Type.Array(ref(ResponseSchema)) },
  { $id: 'SurveyResponseList', additionalProperties: false },
);
export const ResponseBody = Type.Object({ answers: Type.Record(Type.String(), Type.Unknown()), submit: Type.Optional(Type.Boolean()) }, { $id: 'SurveyResponseBody' });
export const ResponseDeletedSchema = Type.Object({ employeeId: Type.String(), deleted: Type.Literal(true), answersRemoved: Type.Integer({ minimum: 0 }) }, { $id: 'SurveyResponseDeleted', additionalProperties: false });

const Band = Type.Union([Type.Literal('high'), Type.Literal('directional'), Type.Literal('low')], { description: '≥ 80 % high, 65–79 % directional, < 65 % low' });
const GroupRow = Type.Object(
  { value: Type.String(), respondents: Type.Integer(), submitted: Type.Integer(), inProgress: Type.Integer(), notStarted: Type.Integer(), rate: Type.Number(), band: Band },
  { additionalProperties: false },
);
export const TrackingSchema = Type.Object(
  {
    respondents: Type.Integer({ minimum: 0 }),
    submitted: Type.Integer({ minimum: 0 }),
    inProgress: Type.Integer({ minimum: 0 }),
    notStarted: Type.Integer({ minimum: 0 }),
    rate: Type.Number({ minimum: 0, maximum: 1, description: 'submitted / respondents' }),
    band: Band,
    minGroupSize: Type.Integer(),
    groups: Type.Array(
      Type.Object(
        { field: Type.String(), label: Type.String(), groups: Type.Array(GroupRow), suppressed: Type.Integer({ description: 'Respondents in groups below the minimum size that were left out.' }) },
        { additionalProperties: false },
      ),
      { description: 'Per non-sensitive custom field; groups below minGroupSize merged into `Other (< k)` (left out when that is also below it).' },
    ),
    notStartedPeople: Type.Union([Type.Array(Type.Object({ employeeId: Type.String(), name: Type.String() }, { additionalProperties: false })), Type.Null()], { description: 'null in pseudonymised surveys.' }),
    email: Type.Object(
      {
        enabled: Type.Boolean(),
        launch: Type.Object({ sent: Type.Integer(), failed: Type.Integer() }, { additionalProperties: false }),
        reminders: Type.Object({ sent: Type.Integer(), failed: Type.Integer(), rounds: Type.Integer() }, { additionalProperties: false }),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'SurveyTracking', additionalProperties: false },
);

/* ------------------------------------------------------------------ respondent */

export const RespondentViewSchema = Type.Object(
  {
    survey: Type.Object(
      {
        intro: Type.String(),
        consent: Type.Union([Consent, Type.Null()]),
        privacy: Type.Union([Type.Literal('identified'), Type.Literal('confidential'), Type.Literal('pseudonymised')]),
        closesAt: Nullable(DateTime),
        version: Type.Integer(),
        questions: Type.Array(ref(RespondentQuestionSchema)),
        rosterSize: Type.Integer({ description: 'People who can be named (cards up to ~100, search above).' }),
      },
      { additionalProperties: false },
    ),
    respondent: Type.Object({ employeeId: Type.String(), name: Type.String(), status: ResponseStatus, submittedAt: Nullable(DateTime) }, { additionalProperties: false }),
    answers: Type.Record(Type.String(), Type.Unknown()),
    carryForward: Type.Record(Type.String(), Type.Array(Type.String()), { description: '{ <questionId>: employeeIds offered (named in its carryForwardFrom question) }' }),
  },
  { $id: 'RespondentView', additionalProperties: false },
);

export const RespondentRosterSchema = Type.Object(
  {
    total: Type.Integer(),
    offset: Type.Integer(),
    limit: Type.Integer(),
    fields: Type.Array(Type.Object({ key: Type.String(), label: Type.String() }, { additionalProperties: false }), { description: 'The non-sensitive fields shown.' }),
    people: Type.Array(
      Type.Object({ employeeId: Type.String(), name: Type.String(), photoUrl: Type.Optional(Type.String()), fields: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])) }, { additionalProperties: false }),
    ),
  },
  { $id: 'RespondentRoster', additionalProperties: false },
);

export const AnswerSavedSchema = Type.Object({ questionId: Type.String(), value: Type.Unknown(), version: Type.Integer(), savedAt: DateTime }, { $id: 'AnswerSaved', additionalProperties: false });
export const AnswerBody = Type.Object({ value: Type.Unknown() }, { $id: 'AnswerBody' });
export const SubmittedSchema = Type.Object({ status: Type.Literal('submitted'), submittedAt: DateTime }, { $id: 'Submitted', additionalProperties: false });
export const OpenLinkResultSchema = Type.Object({ token: Type.String(), url: Type.String() }, { $id: 'OpenLinkResult', additionalProperties: false });

export const DeliverySchema = Type.Object(
  {
    employeeId: Type.String({ description: 'The pseudonym in pseudonymised surveys.' }),
    step: Type.String({ description: '`launch`, `reminder-1`, `reminder-2`, …' }),
    status: Type.Union([Type.Literal('claimed'), Type.Literal('sent'), Type.Literal('failed')], { description: 'claimed: being sent (or the sender stopped mid-way: never sent twice, so not retried)' }),
    claimedAt: DateTime,
    sentAt: Nullable(DateTime),
    error: Nullable(Type.String()),
  },
  { $id: 'SurveyDelivery', additionalProperties: false },
);
export const DeliveriesSchema = Type.Object({ enabled: Type.Boolean({ description: 'false: SMTP_URL is not set; nothing is e-mailed.' }), deliveries: Type.Array(ref(DeliverySchema)) }, { $id: 'SurveyDeliveries', additionalProperties: false });

export const SURVEY_SCHEMAS = [
  SurveyCompareBody,
  SurveyCompareSchema,
  GenerateOptions,
  SurveyGeneratedSchema,
  SurveyNetworksBody,
  SurveyNetworksResultSchema,
  SurveyNetworksPreviewSchema,
  DeliverySchema,
  DeliveriesSchema,
  SelectorSchema,
  QuestionSchema,
  RespondentQuestionSchema,
  SurveySchema,
  SurveyBody,
  SurveyListSchema,
  SurveyCopyBody,
  SurveyShareSchema,
  SurveySharesSchema,
  SurveyShareBody,
  SurveyLinkSchema,
  SurveyLinksSchema,
  ResponseSchema,
  ResponseListSchema,
  ResponseBody,
  ResponseDeletedSchema,
  TrackingSchema,
  RespondentViewSchema,
  RespondentRosterSchema,
  AnswerSavedSchema,
  AnswerBody,
  SubmittedSchema,
  OpenLinkResultSchema,
];
