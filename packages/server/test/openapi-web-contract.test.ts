// The web application's own endpoints answer what /app/api/openapi.json says (docs/spec/contract.md), as
// the public API's contract test does for /api/v2: a real server listening on a port, signed in the way
// the web application is (the session cookie of POST /app/api/session, the CSRF token of its answer in
// `X-CSRF-Token` and a same-origin `Origin` on every change), every operation of the document called over
// HTTP with its success and the problems it documents, and every answer checked against the document:
// status listed, content type documented, body valid. Without a session every cookie-authenticated
// operation must answer 401, and every change without the CSRF token 403. The test fails listing each
// mismatch and each operation no call exercised (a new web route needs its calls here).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { TOTP, Secret } from 'otpauth';
import { embedFixture, ORIGIN, type EmbedFixture } from './helpers/embed.ts';
import { ContractChecker, type Answer, type CallOptions } from './helpers/contract.ts';
import { PASSWORD } from './helpers/web.ts';
import { smallNetwork } from './helpers/app.ts';

let f: EmbedFixture;
let api: ContractChecker;
let self: string;

before(async () => {
  f = await embedFixture('sqlite', { NETLOOM_WEB_SIGNIN_FAILURES_PER_ACCOUNT: '3', NETLOOM_MAX_BODY_BYTES: String(2 * 1024 * 1024) }, { seats: 2 });
  const address = await f.app.listen({ port: 0, host: '127.0.0.1' });
  const doc = (await (await fetch(`${address}/app/api/openapi.json`)).json()) as Record<string, unknown>;
  api = new ContractChecker(doc, address);
  self = f.t.config.publicUrl;
});

after(async () => {
  await f?.t.close();
});

const totp = (secret: string, at: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at, algorithm: 'SHA1', digits: 6, period: 30 });

/** A browser of the web application: its session cookie and CSRF token. */
interface Browser {
  cookie: string | null;
  csrf: string | null;
}
const browser = (): Browser => ({ cookie: null, csrf: null });

/**
 * One call as the web application makes it: the browser's cookie; on a change the same-origin `Origin`
 * and the CSRF token (unless `csrf: false` / `origin: null`). Keeps the cookie and token it is given.
 */
async function web(b: Browser | null, op: string, opts: CallOptions & { csrf?: boolean; origin?: string | null } = {}): Promise<Answer> {
  const method = op.split(' ')[0];
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (b?.cookie) headers.cookie = `nl_session=${b.cookie}`;
  const unsafe = !['GET', 'HEAD'].includes(method);
  const origin = opts.origin === undefined ? self : opts.origin;
  if (unsafe && origin !== null) headers.origin = origin;
  if (unsafe && opts.csrf !== false && b?.csrf) headers['x-csrf-token'] = b.csrf;
  const a = await api.call(op, { ...opts, headers });
  if (b) {
    const set = a.headers.getSetCookie().find((c) => c.startsWith('nl_session='));
    if (set) {
      const value = /^nl_session=([^;]*)/.exec(set)![1];
      b.cookie = value === '' || /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(set) ? null : value;
    }
    if (a.status === 200 && typeof a.json?.csrfToken === 'string') b.csrf = a.json.csrfToken;
  }
  return a;
}

/** Calls whose status was not the one the scenario expects (reported at the end, all at once). */
const unexpected: string[] = [];
function expect(a: Answer, status: number, what: string): Answer {
  if (a.status !== status) unexpected.push(`${what}: expected ${status}, got ${a.status} ${a.text.slice(0, 300)}`);
  return a;
}

async function signedIn(email: string, password = PASSWORD): Promise<Browser> {
  const b = browser();
  expect(await web(b, 'POST /app/api/session', { json: { email, password } }), 200, `sign in ${email}`);
  return b;
}

async function emailOf(userId: string): Promise<string> {
  return (await f.t.database.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email;
}

test('every operation of /app/api/openapi.json answers as documented', async () => {
  const t = f.t;
  const owner = browser();
  const ownerEmail = await emailOf(f.ownerId);
  const standardUser = await t.user();
  await t.member(f.orgId, standardUser.id, 'Standard User');
  const outsider = await t.user({ plan: 'enterprise' });

  /* ---------------------------------------------------------------- session */
  expect(await web(owner, 'GET /app/api/session'), 401, 'signed out');
  expect(await web(owner, 'POST /app/api/session', { json: { email: ownerEmail } }), 400, 'sign in without password');
  expect(await web(owner, 'POST /app/api/session', { json: { email: ownerEmail, password: 'not the password' } }), 401, 'wrong password');
  expect(await web(owner, 'POST /app/api/session', { json: { email: ownerEmail, password: PASSWORD }, origin: 'https://evil.example' }), 403, 'sign in from a foreign origin');
  expect(await web(owner, 'POST /app/api/session', { headers: { 'content-type': 'text/plain' }, body: 'hello' }), 415, 'sign in with text');
  expect(await web(owner, 'POST /app/api/session', { json: { email: ownerEmail, password: 'x'.repeat(3 * 1024 * 1024) } }), 413, 'sign in too large');
  expect(await web(owner, 'POST /app/api/session', { json: { email: ownerEmail, password: PASSWORD } }), 200, 'sign in');
  expect(await web(owner, 'GET /app/api/session'), 200, 'session');
  const standard = await signedIn(standardUser.email);
  const outsiderBrowser = await signedIn(outsider.email);

  /* ---------------------------------------------------------------- account */
  expect(await web(owner, 'GET /app/api/account'), 200, 'account');
  const second = await signedIn(ownerEmail);
  const sessions = expect(await web(owner, 'GET /app/api/account/sessions'), 200, 'sessions').json;
  const other = (sessions?.sessions as { id: string; current: boolean }[] | undefined)?.find((s) => !s.current);
  expect(await web(owner, 'DELETE /app/api/account/sessions/{id}', { params: { id: other?.id ?? 'none' } }), 200, 'end another session');
  expect(await web(owner, 'DELETE /app/api/account/sessions/{id}', { params: { id: 'nope' } }), 404, 'end an unknown session');
  expect(await web(second, 'GET /app/api/session'), 401, 'the ended session');

  const mover = await t.user();
  const moverBrowser = await signedIn(mover.email);
  await signedIn(mover.email);
  expect(await web(moverBrowser, 'POST /app/api/account/password', { json: { currentPassword: PASSWORD, newPassword: 'short' } }), 400, 'too short a password');
  expect(await web(moverBrowser, 'POST /app/api/account/password', { json: { currentPassword: 'not the password', newPassword: 'a new long passphrase' } }), 401, 'wrong current password');
  expect(await web(moverBrowser, 'POST /app/api/account/password', { json: { currentPassword: PASSWORD, newPassword: 'a new long passphrase' } }), 200, 'change password');
  expect(await web(moverBrowser, 'POST /app/api/account/sessions/sign-out-everywhere'), 200, 'sign out everywhere');

  const mfaUser = await t.user();
  const mfa = await signedIn(mfaUser.email);
  const setup = expect(await web(mfa, 'POST /app/api/account/mfa/setup'), 200, 'mfa setup').json;
  expect(await web(mfa, 'POST /app/api/account/mfa/enable', { json: { code: '000000x', password: PASSWORD } }), 400, 'mfa enable with a malformed code');
  expect(await web(mfa, 'POST /app/api/account/mfa/enable', { json: { code: totp(setup.secret, f.clock.now) } }), 400, 'mfa enable without the password');
  expect(await web(mfa, 'POST /app/api/account/mfa/enable', { json: { code: totp(setup.secret, f.clock.now), password: PASSWORD } }), 200, 'mfa enable');
  f.clock.advance(60_000);
  expect(await web(mfa, 'POST /app/api/account/mfa/enable', { json: { code: totp(setup.secret, f.clock.now), password: PASSWORD } }), 409, 'mfa enable twice');
  expect(await web(mfa, 'POST /app/api/account/mfa/recovery-codes', { json: { password: PASSWORD } }), 200, 'new recovery codes');
  expect(await web(mfa, 'POST /app/api/account/mfa/recovery-codes', { json: { password: 'not the password' } }), 401, 'recovery codes with a wrong password');
  expect(await web(mfa, 'POST /app/api/account/mfa/disable', { json: { password: 'not the password' } }), 401, 'mfa disable with a wrong password');
  expect(await web(mfa, 'POST /app/api/account/mfa/disable', { json: {} }), 400, 'mfa disable without password');
  expect(await web(mfa, 'POST /app/api/account/mfa/disable', { json: { password: PASSWORD } }), 200, 'mfa disable');

  /* ---------------------------------------------------------------- organization settings, invitations, links */
  expect(await web(owner, 'PUT /app/api/organization/settings', { json: { requireMfa: false } }), 200, 'org settings');
  expect(await web(owner, 'PUT /app/api/organization/settings', { json: { requireMfa: 'yes' } }), 400, 'org settings type');
  expect(await web(standard, 'PUT /app/api/organization/settings', { json: { requireMfa: true } }), 403, 'org settings by a Standard User');
  const invitation = expect(await web(owner, 'POST /app/api/organization/invitations', { json: { email: 'invited@example.com', role: 'Standard User' } }), 201, 'invite').json;
  expect(await web(owner, 'POST /app/api/organization/invitations', { json: { email: 'not an address' } }), 400, 'invite a bad address');
  expect(await web(owner, 'POST /app/api/organization/invitations', { json: { email: standardUser.email } }), 409, 'invite a member');
  expect(await web(standard, 'POST /app/api/organization/invitations', { json: { email: 'x@example.com' } }), 403, 'invite by a Standard User');
  const token = String(invitation?.url ?? '/link/none').split('/link/')[1];
  const invitee = browser();
  expect(await web(invitee, 'GET /app/api/links/{token}', { params: { token } }), 200, 'link info');
  expect(await web(invitee, 'GET /app/api/links/{token}', { params: { token: 'nope' } }), 404, 'unknown link');
  expect(await web(null, 'GET /app/api/password-reset'), 200, 'is self-service reset on');
  expect(await web(null, 'POST /app/api/password-reset', { json: { email: 'someone@example.com' } }), 403, 'self-service reset without e-mail');
  expect(await web(null, 'POST /app/api/password-reset', { json: { mail: 'x' } }), 400, 'self-service reset without an address');
  expect(await web(invitee, 'POST /app/api/links/{token}', { params: { token }, json: { password: 'a long passphrase' } }), 400, 'redeem without the name');
  expect(await web(invitee, 'POST /app/api/links/{token}', { params: { token }, json: { name: 'Invited', password: 'a long passphrase' }, origin: 'https://evil.example' }), 403, 'redeem from a foreign origin');
  expect(await web(invitee, 'POST /app/api/links/{token}', { params: { token }, json: { name: 'Invited', password: 'a long passphrase' } }), 200, 'redeem');
  expect(await web(browser(), 'POST /app/api/links/{token}', { params: { token }, json: { name: 'Invited', password: 'a long passphrase' } }), 404, 'redeem twice');

  /* ---------------------------------------------------------------- credentials */
  expect(await web(owner, 'GET /app/api/scopes'), 200, 'scopes');
  const credential = expect(await web(owner, 'POST /app/api/credentials', { json: { name: 'CI', password: PASSWORD, scopes: ['networks:read'] } }), 201, 'create credential').json;
  expect(await web(owner, 'POST /app/api/credentials', { json: { name: 'Org', password: PASSWORD, scopes: 'full', owner: 'organization' } }), 201, 'create organization credential');
  expect(await web(owner, 'POST /app/api/credentials', { json: { name: 'CI', password: PASSWORD, scopes: ['nope:read'] } }), 400, 'unknown scope');
  expect(await web(owner, 'POST /app/api/credentials', { json: { name: 'CI', password: 'not the password', scopes: 'full' } }), 401, 'credential with a wrong password');
  expect(await web(standard, 'POST /app/api/credentials', { json: { name: 'Org', password: PASSWORD, scopes: 'full', owner: 'organization' } }), 403, 'organization credential by a Standard User');
  expect(await web(owner, 'GET /app/api/credentials'), 200, 'credentials');
  expect(await web(owner, 'DELETE /app/api/credentials/{id}', { params: { id: credential?.credential?.id ?? 'none' } }), 200, 'revoke');
  expect(await web(owner, 'DELETE /app/api/credentials/{id}', { params: { id: 'nope' } }), 404, 'revoke unknown');

  /* ---------------------------------------------------------------- networks */
  const upload = new FormData();
  upload.append('file', new Blob([JSON.stringify({ name: 'Web', networkJSON: smallNetwork() })], { type: 'application/json' }), 'web.json');
  const imported = expect(await web(owner, 'POST /app/api/networks/import', { body: upload }), 201, 'import').json;
  const id = String(imported?._id ?? 'none');
  const badUpload = new FormData();
  badUpload.append('file', new Blob(['{"nodes": [{"id": "a"}], "edges": [{"id": 1, "source": "a", "target": "q"}]}'], { type: 'application/json' }), 'bad.json');
  expect(await web(owner, 'POST /app/api/networks/import', { body: badUpload }), 400, 'import with problems');
  expect(await web(owner, 'GET /app/api/networks', { query: { sort: 'name' } }), 200, 'networks');
  expect(await web(owner, 'GET /app/api/networks', { query: { sort: 'size' } }), 400, 'networks sort');
  expect(await web(owner, 'GET /app/api/networks/{id}', { params: { id } }), 200, 'network');
  expect(await web(owner, 'GET /app/api/networks/{id}', { params: { id: 'nope' } }), 404, 'unknown network');
  expect(await web(owner, 'PATCH /app/api/networks/{id}', { params: { id }, json: { description: 'ours', status: 'Public' } }), 200, 'patch');
  expect(await web(owner, 'PATCH /app/api/networks/{id}', { params: { id }, json: { status: 'Secret' } }), 400, 'patch status');
  expect(await web(owner, 'PATCH /app/api/networks/{id}', { params: { id: 'nope' }, json: { name: 'x' } }), 404, 'patch unknown');
  expect(await web(owner, 'PUT /app/api/networks/{id}/shares', { params: { id }, json: { email: standardUser.email, permission: 'View' } }), 200, 'share');
  expect(await web(owner, 'PUT /app/api/networks/{id}/shares', { params: { id }, json: { email: standardUser.email, permission: 'Own' } }), 400, 'share permission');
  expect(await web(owner, 'PUT /app/api/networks/{id}/shares', { params: { id: 'nope' }, json: { email: standardUser.email, permission: 'View' } }), 404, 'share unknown');
  expect(await web(standard, 'PATCH /app/api/networks/{id}', { params: { id }, json: { name: 'Mine' } }), 403, 'patch by a viewer');
  expect(await web(owner, 'DELETE /app/api/networks/{id}/shares/{email}', { params: { id, email: standardUser.email } }), 200, 'unshare');
  expect(await web(owner, 'DELETE /app/api/networks/{id}/shares/{email}', { params: { id: 'nope', email: standardUser.email } }), 404, 'unshare unknown');
  const formats = (api.doc.paths['/app/api/networks/{id}/export'].get.parameters as { name: string; schema: { enum?: string[]; anyOf?: { const?: string; enum?: string[] }[] } }[]).find((p) => p.name === 'format')!.schema;
  for (const format of formats.enum ?? formats.anyOf!.flatMap((s) => s.enum ?? [s.const!])) expect(await web(owner, 'GET /app/api/networks/{id}/export', { params: { id }, query: { format } }), 200, `export ${format}`);
  expect(await web(owner, 'GET /app/api/networks/{id}/export', { params: { id }, query: { format: 'pdf' } }), 400, 'export format');
  expect(await web(owner, 'GET /app/api/networks/{id}/export', { params: { id: 'nope' }, query: { format: 'json' } }), 404, 'export unknown');

  /* ---------------------------------------------------------------- metric jobs */
  const job = expect(await web(owner, 'POST /app/api/networks/{id}/metrics/{metricId}', { params: { id, metricId: 'pageRank' }, json: {} }), 202, 'metric job').json;
  expect(await web(owner, 'POST /app/api/networks/{id}/metrics/{metricId}', { params: { id, metricId: 'pageRank' }, json: { alpha: 'high' } }), 400, 'metric job parameters');
  expect(await web(owner, 'POST /app/api/networks/{id}/metrics/{metricId}', { params: { id: 'nope', metricId: 'pageRank' }, json: {} }), 404, 'metric job on unknown network');
  expect(await web(owner, 'GET /app/api/jobs', { query: { limit: '10' } }), 200, 'jobs');
  expect(await web(owner, 'GET /app/api/metrics'), 200, 'metrics offered');
  expect(await web(owner, 'GET /app/api/jobs', { query: { limit: '500' } }), 400, 'jobs limit');
  expect(await web(owner, 'DELETE /app/api/jobs/{id}', { params: { id: String(job?.jobId ?? 'none') } }), 200, 'cancel job');
  expect(await web(owner, 'DELETE /app/api/jobs/{id}', { params: { id: 'nope' } }), 404, 'cancel unknown job');

  /* ---------------------------------------------------------------- explore */
  const explored = expect(await web(owner, 'POST /app/api/networks/{id}/explore', { params: { id } }), 201, 'explore').json;
  expect(await web(owner, 'POST /app/api/networks/{id}/explore', { params: { id: 'nope' } }), 404, 'explore unknown');
  expect(await web(browser(), 'POST /app/api/public-networks/{id}/explore', { params: { id } }), 201, 'explore a Public network signed out');
  expect(await web(browser(), 'POST /app/api/public-networks/{id}/explore', { params: { id: f.networkId } }), 404, 'explore a Private network signed out');
  expect(await web(owner, 'POST /app/api/explore/{sessionId}/launch-tokens', { params: { sessionId: String(explored?.sessionId ?? 'none') } }), 200, 'explore launch token');
  expect(await web(owner, 'POST /app/api/explore/{sessionId}/launch-tokens', { params: { sessionId: 'nope' } }), 404, 'explore launch token of unknown');

  /* ---------------------------------------------------------------- people and surveys (the /api/v2 plugins on the web surface) */
  const accessOnlyUser = await t.user();
  await t.member(f.orgId, accessOnlyUser.id, 'Access-only');
  const accessOnly = await signedIn(accessOnlyUser.email);
  const cf = expect(await web(standard, 'POST /app/api/customFields', { json: { key: 'team', label: 'Team', type: 'category', options: ['N', 'S'] } }), 201, 'add field').json;
  const cfId = String(cf?._id ?? 'none');
  expect(await web(standard, 'POST /app/api/customFields', { json: { key: 'team', label: 'Again', type: 'text' } }), 409, 'field key taken');
  expect(await web(standard, 'GET /app/api/customFields'), 200, 'fields');
  expect(await web(accessOnly, 'GET /app/api/customFields'), 403, 'fields for Access-only');
  expect(await web(standard, 'GET /app/api/customFields/{id}', { params: { id: cfId } }), 200, 'field');
  expect(await web(outsiderBrowser, 'GET /app/api/customFields/{id}', { params: { id: cfId } }), 404, 'field of another directory');
  expect(await web(standard, 'PUT /app/api/customFields/{id}', { params: { id: cfId }, json: { label: 'Office team' } }), 200, 'rename field');
  expect(await web(standard, 'PUT /app/api/customFields/{id}', { params: { id: 'nope' }, json: { label: 'x' } }), 404, 'rename unknown field');
  const wp = expect(await web(standard, 'POST /app/api/employees', { json: { employeeId: 'W1', name: 'Wren', email: 'wren@example.com', fields: { team: 'N' } } }), 201, 'add person').json;
  const wpId = String(wp?._id ?? 'none');
  expect(await web(standard, 'POST /app/api/employees', { json: { employeeId: 'W2', name: 'Wes', email: 'WREN@example.com' } }), 409, 'e-mail taken');
  expect(await web(standard, 'GET /app/api/employees', { query: { q: 'wren', limit: '10' } }), 200, 'people');
  expect(await web(standard, 'PUT /app/api/employees', { json: { mode: 'merge', employees: [{ employeeId: 'W2', name: 'Wes', fields: { team: 'S' } }, { employeeId: 'W3', name: 'Wyn', fields: { team: 'S' } }] } }), 200, 'bulk upsert');
  expect(await web(standard, 'PUT /app/api/employees', { json: { employees: [{ employeeId: 'W2' }] } }), 400, 'bulk upsert problems');
  expect(await web(standard, 'POST /app/api/employees/import', { headers: { 'content-type': 'text/csv' }, query: { dryRun: 'true' }, body: 'EmployeeId,Name\r\nW9,Nine\r\n' }), 200, 'import');
  expect(await web(standard, 'POST /app/api/employees/import', { headers: { 'content-type': 'text/csv' }, body: 'EmployeeId,Name,Shoe\r\nW9,Nine,42\r\n' }), 400, 'import problems');
  expect(await web(standard, 'GET /app/api/employees/template', { query: { format: 'xlsx' } }), 200, 'template');
  expect(await web(standard, 'GET /app/api/employees/{id}', { params: { id: wpId } }), 200, 'person');
  expect(await web(outsiderBrowser, 'GET /app/api/employees/{id}', { params: { id: wpId } }), 404, 'person of another directory');
  expect(await web(standard, 'PUT /app/api/employees/{id}', { params: { id: wpId }, json: { employeeId: 'W1', name: 'Wren Ash', fields: { team: 'S' } } }), 200, 'replace person');
  const wsq = [{ id: 'advice', type: 'relationship', text: 'Who?' }, { id: 'office', type: 'singleChoice', text: 'Office?', options: ['N', 'S'] }];
  const ws = expect(await web(standard, 'POST /app/api/surveys', { json: { name: 'Web advice', questions: wsq, respondents: { field: 'team', values: ['S'] } } }), 201, 'create survey').json;
  const wsId = String(ws?._id ?? 'none');
  expect(await web(standard, 'POST /app/api/surveys', { json: { name: '', questions: [{ type: 'x' }] } }), 400, 'bad survey');
  expect(await web(standard, 'GET /app/api/surveys'), 200, 'surveys');
  expect(await web(standard, 'GET /app/api/surveys/{id}', { params: { id: wsId } }), 200, 'survey');
  expect(await web(outsiderBrowser, 'GET /app/api/surveys/{id}', { params: { id: wsId } }), 404, 'survey of another directory');
  expect(await web(standard, 'PUT /app/api/surveys/{id}', { params: { id: wsId }, json: { status: 'collecting' } }), 200, 'launch');
  expect(await web(standard, 'PUT /app/api/surveys/{id}', { params: { id: wsId }, json: { status: 'draft' } }), 400, 'back to draft');
  expect(await web(standard, 'POST /app/api/surveys/{id}/copy', { params: { id: wsId }, json: { wave: true } }), 201, 'next wave');
  expect(await web(standard, 'PUT /app/api/surveys/{id}/shares', { params: { id: wsId }, json: { email: ownerEmail, permission: 'View' } }), 200, 'share survey');
  expect(await web(standard, 'GET /app/api/surveys/{id}/shares', { params: { id: wsId } }), 200, 'survey shares');
  expect(await web(standard, 'DELETE /app/api/surveys/{id}/shares/{userId}', { params: { id: wsId, userId: f.ownerId } }), 200, 'unshare survey');
  expect(await web(standard, 'GET /app/api/surveys/{id}/links', { params: { id: wsId } }), 200, 'links');
  expect(await web(standard, 'GET /app/api/surveys/{id}/links', { params: { id: wsId }, query: { format: 'xlsx' } }), 200, 'links as Excel');
  expect(await web(standard, 'PUT /app/api/surveys/{id}/responses/{employeeId}', { params: { id: wsId, employeeId: 'W1' }, json: { answers: { office: 'S' } } }), 200, 'owner entry');
  expect(await web(standard, 'PUT /app/api/surveys/{id}/responses/{employeeId}', { params: { id: wsId, employeeId: 'W1' }, json: { answers: { office: 'W' } } }), 400, 'bad owner entry');
  expect(await web(standard, 'GET /app/api/surveys/{id}/responses', { params: { id: wsId } }), 200, 'responses');
  expect(await web(standard, 'GET /app/api/surveys/{id}/tracking', { params: { id: wsId } }), 200, 'tracking');
  expect(await web(standard, 'GET /app/api/surveys/{id}/deliveries', { params: { id: wsId } }), 200, 'deliveries');
  expect(await web(standard, 'POST /app/api/surveys/{id}/networks', { params: { id: wsId }, json: { dryRun: true } }), 200, 'preview survey networks');
  expect(await web(standard, 'POST /app/api/surveys/{id}/networks', { params: { id: wsId }, json: { combined: true, nonRespondents: 'reconstruct' } }), 201, 'generate survey networks');
  expect(await web(outsiderBrowser, 'POST /app/api/surveys/{id}/networks', { params: { id: wsId }, json: {} }), 404, 'generate in another directory');
  expect(await web(standard, 'POST /app/api/surveys/{id}/compare', { params: { id: wsId }, json: {} }), 409, 'compare a first wave');
  const wave2 = expect(await web(standard, 'POST /app/api/surveys/{id}/copy', { params: { id: wsId }, json: { wave: true } }), 201, 'a wave to compare').json;
  const w2Id = String(wave2?._id ?? 'none');
  expect(await web(standard, 'PUT /app/api/surveys/{id}', { params: { id: w2Id }, json: { status: 'collecting' } }), 200, 'launch wave 2');
  const w2Nets = expect(await web(standard, 'POST /app/api/surveys/{id}/networks', { params: { id: w2Id }, json: { combined: true, nonRespondents: 'reconstruct' } }), 201, 'generate wave 2').json;
  expect(await web(standard, 'POST /app/api/surveys/{id}/compare', { params: { id: w2Id }, json: { question: 'advice' } }), 200, 'compare waves');
  expect(await web(outsiderBrowser, 'POST /app/api/surveys/{id}/compare', { params: { id: w2Id }, json: {} }), 404, 'compare waves of another directory');
  const w2Advice = String((w2Nets?.networks as { _id: string }[] | undefined)?.[0]?._id ?? 'none');
  const w1Advice = String(((await web(standard, 'GET /app/api/surveys/{id}', { params: { id: wsId } })).json?.networks as { _id: string; question: string }[] | undefined)?.find((n) => n.question === 'advice')?._id ?? 'none');
  expect(await web(standard, 'POST /app/api/networks/compare', { json: { a: w1Advice, b: w2Advice } }), 200, 'compare two networks');
  expect(await web(outsiderBrowser, 'POST /app/api/networks/compare', { json: { a: w1Advice, b: w2Advice } }), 404, 'compare networks of another directory');
  expect(await web(browser(), 'POST /app/api/networks/compare', { json: { a: w1Advice, b: w2Advice } }), 401, 'compare signed out');
  expect(await web(standard, 'POST /app/api/networks/compare/network', { json: { a: w1Advice, b: w2Advice } }), 201, 'difference network');
  expect(await web(outsiderBrowser, 'POST /app/api/networks/compare/network', { json: { a: w1Advice, b: w2Advice } }), 404, 'difference of another directory');
  expect(await web(standard, 'DELETE /app/api/surveys/{id}/responses/{employeeId}', { params: { id: wsId, employeeId: 'W1' } }), 200, 'erase response');
  expect(await web(standard, 'POST /app/api/surveys/{id}/links/{employeeId}/reissue', { params: { id: wsId, employeeId: 'W2' } }), 200, 'reissue');
  expect(await web(standard, 'POST /app/api/surveys/{id}/links/{employeeId}/revoke', { params: { id: wsId, employeeId: 'W2' } }), 200, 'revoke');
  expect(await web(standard, 'POST /app/api/surveys/{id}/links/{employeeId}/revoke', { params: { id: wsId, employeeId: 'nobody' } }), 404, 'revoke an unknown respondent');
  expect(await web(standard, 'PUT /app/api/surveys/{id}', { params: { id: wsId }, json: { status: 'completed' } }), 200, 'close');
  expect(await web(standard, 'PUT /app/api/surveys/{id}/responses/{employeeId}', { params: { id: wsId, employeeId: 'W1' }, json: { answers: { office: 'S' } } }), 410, 'closed survey');
  expect(await web(standard, 'DELETE /app/api/surveys/{id}', { params: { id: wsId } }), 200, 'delete survey');
  expect(await web(standard, 'DELETE /app/api/employees/{id}', { params: { id: wpId } }), 200, 'erase a person');
  expect(await web(standard, 'DELETE /app/api/employees/{id}', { params: { id: wpId } }), 404, 'erase twice');
  expect(await web(standard, 'DELETE /app/api/customFields/{id}', { params: { id: cfId } }), 200, 'delete field');

  /* ---------------------------------------------------------------- organization console: members */
  expect(await web(owner, 'GET /app/api/organization'), 200, 'organization');
  expect(await web(outsiderBrowser, 'GET /app/api/organization'), 403, 'organization of none');
  expect(await web(owner, 'GET /app/api/organization/members'), 200, 'members');
  const joiner = await t.user();
  const joinLink = expect(await web(owner, 'POST /app/api/organization/members', { json: { email: joiner.email, role: 'Standard User' } }), 201, 'add member (an invitation)').json;
  const joinToken = String(joinLink?.url ?? '/link/none').split('/link/')[1];
  expect(await web(invitee, 'POST /app/api/links/{token}/accept', { params: { token: joinToken } }), 403, 'accept as another account');
  expect(await web(browser(), 'POST /app/api/links/{token}/accept', { params: { token: joinToken } }), 401, 'accept signed out');
  expect(await web(browser(), 'POST /app/api/links/{token}', { params: { token: joinToken }, json: { name: 'Mallory', password: 'a long passphrase' } }), 409, 'redeem an existing account’s invitation signed out');
  const joinerBrowser = await signedIn(joiner.email);
  expect(await web(joinerBrowser, 'POST /app/api/links/{token}/accept', { params: { token: joinToken } }), 200, 'accept');
  expect(await web(joinerBrowser, 'POST /app/api/links/{token}/accept', { params: { token: 'nope' } }), 404, 'accept an unknown link');
  expect(await web(owner, 'POST /app/api/organization/members', { json: { email: joiner.email, role: 'Standard User' } }), 409, 'add a member twice');
  expect(await web(owner, 'POST /app/api/organization/members', { json: { email: 'nobody@example.com', role: 'Standard User' } }), 201, 'add an unknown e-mail (the same answer)');
  expect(await web(owner, 'POST /app/api/organization/members', { json: { email: joiner.email, role: 'King' } }), 400, 'add with a bad role');
  expect(await web(standard, 'POST /app/api/organization/members', { json: { email: joiner.email, role: 'Admin' } }), 403, 'add by a Standard User');
  expect(await web(owner, 'PATCH /app/api/organization/members/{userId}', { params: { userId: joiner.id }, json: { role: 'Admin' } }), 200, 'change role');
  expect(await web(owner, 'PATCH /app/api/organization/members/{userId}', { params: { userId: joiner.id }, json: { role: 'King' } }), 400, 'change to a bad role');
  expect(await web(owner, 'PATCH /app/api/organization/members/{userId}', { params: { userId: 'nope' }, json: { role: 'Admin' } }), 404, 'change role of unknown');
  expect(await web(owner, 'PATCH /app/api/organization/members/{userId}', { params: { userId: f.ownerId }, json: { role: 'Admin' } }), 409, 'the last Owner');
  expect(await web(owner, 'POST /app/api/organization/members/{userId}/suspend', { params: { userId: joiner.id } }), 200, 'suspend');
  expect(await web(owner, 'POST /app/api/organization/members/{userId}/suspend', { params: { userId: f.ownerId } }), 403, 'suspend oneself');
  expect(await web(owner, 'POST /app/api/organization/members/{userId}/suspend', { params: { userId: 'nope' } }), 404, 'suspend unknown');
  expect(await web(owner, 'POST /app/api/organization/members/{userId}/reinstate', { params: { userId: joiner.id } }), 200, 'reinstate');
  expect(await web(owner, 'POST /app/api/organization/members/{userId}/reinstate', { params: { userId: 'nope' } }), 404, 'reinstate unknown');
  expect(await web(owner, 'POST /app/api/organization/members/{userId}/reinstate', { params: { userId: f.ownerId } }), 200, 'reinstate an active member (nothing to do)');
  const joinerAgain = await signedIn(joiner.email); // the suspension above ended the joiner's session
  expect(await web(joinerAgain, 'POST /app/api/organization/networks/{networkId}/move-in', { params: { networkId: 'nope' } }), 404, 'move in an unknown network');
  expect(await web(outsiderBrowser, 'POST /app/api/organization/networks/{networkId}/move-in', { params: { networkId: 'nope' } }), 403, 'move in without an organization');
  expect(await web(owner, 'POST /app/api/organization/leave'), 409, 'the last Owner cannot leave');
  expect(await web(joinerAgain, 'POST /app/api/organization/leave'), 200, 'leave');
  expect(await web(joinerAgain, 'POST /app/api/organization/leave'), 403, 'leave when in none');

  /* ---------------------------------------------------------------- organization console: embedding */
  const E = '/app/api/organization/embedding';
  expect(await web(owner, `GET ${E}`), 200, 'embedding console');
  expect(await web(standard, `GET ${E}`), 403, 'embedding console by a Standard User');
  expect(await web(owner, `PUT ${E}/settings`, { json: { allowedOrigins: [ORIGIN, self], dataDisclosureAccepted: true } }), 200, 'embedding settings');
  expect(await web(owner, `PUT ${E}/settings`, { json: { allowedOrigins: ['https://*.example.com'] } }), 400, 'wildcard origin');
  expect(await web(owner, `GET ${E}/networks`), 200, 'network chooser');
  expect(await web(owner, `PUT ${E}/users/{externalId}`, { params: { externalId: 'ann' }, json: { displayName: 'Ann' } }), 201, 'create managed user');
  expect(await web(owner, `PUT ${E}/users/{externalId}`, { params: { externalId: 'ann' }, json: { displayName: 'Ann B.' } }), 200, 'update managed user');
  expect(await web(owner, `PUT ${E}/users/{externalId}`, { params: { externalId: 'ann' }, json: { readOnly: true } }), 409, 'immutable membership');
  expect(await web(owner, `PUT ${E}/users/{externalId}`, { params: { externalId: 'ann' }, json: { chatAccess: 'sometimes' } }), 400, 'bad chatAccess');
  expect(await web(owner, `PUT ${E}/users/{externalId}`, { params: { externalId: 'bob' }, json: { displayName: 'Bob' } }), 201, 'second managed user');
  expect(await web(owner, `PUT ${E}/users/{externalId}`, { params: { externalId: 'cy' }, json: { displayName: 'Cy' } }), 402, 'no seat left');
  expect(await web(owner, `GET ${E}/users`, { query: { status: 'active', limit: '10' } }), 200, 'managed users');
  expect(await web(owner, `GET ${E}/users`, { query: { limit: '501' } }), 400, 'managed users limit');
  expect(await web(owner, `GET ${E}/users/{externalId}`, { params: { externalId: 'ann' } }), 200, 'managed user');
  expect(await web(owner, `GET ${E}/users/{externalId}`, { params: { externalId: 'nobody' } }), 404, 'unknown managed user');
  expect(await web(owner, `PUT ${E}/users/{externalId}/networks/{networkId}`, { params: { externalId: 'ann', networkId: f.networkId }, json: { permission: 'Edit' } }), 200, 'grant');
  expect(await web(owner, `PUT ${E}/users/{externalId}/networks/{networkId}`, { params: { externalId: 'ann', networkId: f.networkId }, json: { permission: 'Own' } }), 400, 'grant permission');
  expect(await web(owner, `PUT ${E}/users/{externalId}/networks/{networkId}`, { params: { externalId: 'ann', networkId: 'nope' }, json: { permission: 'View' } }), 404, 'grant unknown network');
  const tried = expect(await web(owner, `POST ${E}/sessions`, { json: { externalId: 'ann', networkId: f.networkId, origin: self } }), 201, 'try it').json;
  expect(await web(owner, `POST ${E}/sessions`, { json: { externalId: 'ann', networkId: f.networkId } }), 400, 'try it without origin');
  expect(await web(owner, `POST ${E}/sessions`, { json: { externalId: 'nobody', networkId: f.networkId, origin: self } }), 404, 'try it for an unknown user');
  expect(await web(owner, `GET ${E}/sessions`, { query: { limit: '10' } }), 200, 'live sessions');
  expect(await web(owner, `GET ${E}/sessions`, { query: { limit: 'all' } }), 400, 'live sessions limit');
  const sessionId = String(tried?.sessionId ?? 'none');
  expect(await web(owner, `POST ${E}/sessions/{sessionId}/launch-tokens`, { params: { sessionId } }), 200, 'preview launch token');
  expect(await web(owner, `POST ${E}/sessions/{sessionId}/launch-tokens`, { params: { sessionId: 'f'.repeat(24) } }), 404, 'launch token of unknown');
  expect(await web(owner, `DELETE ${E}/sessions/{sessionId}`, { params: { sessionId } }), 200, 'revoke session');
  expect(await web(owner, `DELETE ${E}/sessions/{sessionId}`, { params: { sessionId: 'f'.repeat(24) } }), 404, 'revoke unknown session');
  expect(await web(owner, `POST ${E}/sessions/{sessionId}/launch-tokens`, { params: { sessionId } }), 410, 'launch token after revocation');
  expect(await web(owner, `DELETE ${E}/users/{externalId}/networks/{networkId}`, { params: { externalId: 'ann', networkId: f.networkId } }), 200, 'remove grant');
  expect(await web(owner, `DELETE ${E}/users/{externalId}/networks/{networkId}`, { params: { externalId: 'nobody', networkId: f.networkId } }), 404, 'remove grant of unknown');
  expect(await web(owner, `POST ${E}/users/{externalId}/deactivate`, { params: { externalId: 'bob' } }), 200, 'deactivate');
  expect(await web(owner, `POST ${E}/users/{externalId}/deactivate`, { params: { externalId: 'nobody' } }), 404, 'deactivate unknown');
  expect(await web(owner, `PUT ${E}/chat`, { json: { aiChat: true } }), 200, 'chat switch');
  expect(await web(owner, `PUT ${E}/chat`, { json: { aiChat: 'yes' } }), 400, 'chat switch type');
  expect(await web(owner, `GET ${E}/networks/{networkId}/presets`, { params: { networkId: f.networkId } }), 200, 'presets');
  expect(await web(owner, `GET ${E}/networks/{networkId}/presets`, { params: { networkId: 'nope' } }), 404, 'presets of unknown');
  expect(await web(owner, `PUT ${E}/networks/{networkId}/presets`, { params: { networkId: f.networkId }, json: { presetQuestions: ['Who bridges the teams?'] } }), 200, 'set presets');
  expect(await web(owner, `PUT ${E}/networks/{networkId}/presets`, { params: { networkId: f.networkId }, json: { presetQuestions: [] } }), 400, 'empty presets');
  expect(await web(owner, `PUT ${E}/networks/{networkId}/presets`, { params: { networkId: 'nope' }, json: { presetQuestions: null } }), 404, 'presets of unknown network');
  expect(await web(owner, `GET ${E}/audit`, { query: { limit: '5', action: 'managedUser.create' } }), 200, 'audit');
  expect(await web(owner, `GET ${E}/audit`, { query: { from: 'yesterday' } }), 400, 'audit date');
  expect(await web(owner, `GET ${E}/audit.csv`), 200, 'audit as CSV');
  expect(await web(owner, `GET ${E}/audit.csv`, { query: { to: 'tomorrow' } }), 400, 'audit as CSV date');

  /* ---------------------------------------------------------------- every operation: no session → 401, no CSRF token → 403 */
  for (const op of api.operations()) {
    const [method, path] = op.split(' ');
    const operation = api.doc.paths[path][method.toLowerCase()];
    const security = (operation.security as Record<string, unknown>[] | undefined) ?? [];
    if (!security.some((s) => 'cookieAuth' in s)) continue;
    const params = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], m[1] === 'id' ? id : 'x']));
    const json = operation.requestBody ? {} : undefined;
    // a session is required unless the document allows none ({}): then there is no 401 to check
    if (!security.some((s) => Object.keys(s).length === 0)) expect(await web(browser(), op, { params, json }), 401, `${op} without a session`);
    if (method !== 'GET') expect(await web(owner, op, { params, json, csrf: false }), 403, `${op} without the CSRF token`);
  }

  /* ---------------------------------------------------------------- endings */
  expect(await web(standard, 'DELETE /app/api/networks/{id}', { params: { id } }), 403, 'delete by a viewer');
  expect(await web(owner, 'DELETE /app/api/networks/{id}', { params: { id: 'nope' } }), 404, 'delete unknown');
  expect(await web(owner, 'DELETE /app/api/networks/{id}', { params: { id } }), 200, 'delete');
  expect(await web(standard, 'DELETE /app/api/session'), 200, 'sign out');
  expect(await web(standard, 'GET /app/api/session'), 401, 'signed out again');

  // 429: failed sign-ins of one account are limited (3 here)
  const target = await t.user();
  let limited: Answer | undefined;
  for (let i = 0; i < 6 && !limited; i++) {
    const a = await web(browser(), 'POST /app/api/session', { json: { email: target.email, password: 'not the password' } });
    if (a.status === 429) limited = a;
    else expect(a, 401, 'wrong password');
  }
  assert.ok(limited, 'failed sign-ins were never limited');

  console.log(api.report(unexpected, 'web openapi contract'));
});

test('the web document names its shapes: every body and answer schema is a $ref to components.schemas', () => {
  const inline: string[] = [];
  for (const [path, ops] of Object.entries<Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }; responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> }>>(api.doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      for (const [media, m] of Object.entries(op.requestBody?.content ?? {})) if (media === 'application/json' && !('$ref' in m.schema)) inline.push(`${method.toUpperCase()} ${path} body`);
      // an inline schema is allowed only where it describes no shape (a downloaded file: any JSON, or bytes)
      const shaped = (schema: Record<string, unknown>) => !('$ref' in schema) && Object.keys((schema.properties as object | undefined) ?? {}).length > 0;
      for (const [status, r] of Object.entries(op.responses)) for (const m of Object.values(r.content ?? {})) if (shaped(m.schema)) inline.push(`${method.toUpperCase()} ${path} → ${status}`);
    }
  }
  assert.deepEqual(inline, []);
});
