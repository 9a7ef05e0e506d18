/**
 * Example host application: its own sign-in (a fixed demo user here), a backend that creates Netloom
 * sessions and hands out launch tokens only for sessions its signed-in user owns, and a page that embeds
 * the viewer with @netloom/embed (loaded from the service's /sdk/embed.js).
 *
 *   NETLOOM_URL=http://localhost:8080 NETLOOM_TOKEN=nl_… NETLOOM_NETWORK_ID=… npx node examples/host/server.ts
 *   open http://127.0.0.1:4000  (this origin must be in the organization's allowed host origins)
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';

const NETLOOM = (process.env.NETLOOM_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const TOKEN = process.env.NETLOOM_TOKEN ?? ''; // organization credential with embed:manage; server side only
const NETWORK_ID = process.env.NETLOOM_NETWORK_ID ?? '';
const PORT = Number(process.env.PORT ?? 4000);
const ORIGIN = `http://127.0.0.1:${PORT}`;

// The host's own sessions: cookie → signed-in user, and which Netloom sessions each user owns.
const users = new Map<string, { userId: string; netloomSessions: Set<string> }>();

async function netloom(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${NETLOOM}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

function signedIn(req: IncomingMessage) {
  const sid = /(?:^|;\s*)host_sid=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1];
  return sid ? users.get(sid) : undefined;
}

const page = `<!doctype html><html><head><meta charset="utf-8"><title>Host app</title>
<style>body{font:14px system-ui;margin:16px} #viewer{width:100%;height:70vh;border:1px solid #ddd}</style></head>
<body><button id="logout">Log out</button> <button id="color">Color by team</button>
<div id="viewer"></div>
<script type="module">
  import Embed from '${NETLOOM}/sdk/embed.js';
  const { sessionId } = await fetch('/api/netloom/session', { method: 'POST' }).then((r) => r.json());
  const embed = await Embed.create(document.getElementById('viewer'), {
    sessionId,
    getLaunchToken: (id) => fetch('/api/netloom/launch-token/' + encodeURIComponent(id), { method: 'POST' })
      .then((r) => { if (!r.ok) throw new Error('not allowed'); return r.text(); }),
  });
  embed.on('node.clicked', (e) => console.log('clicked', e.nodeId, 'revision', e.revision));
  embed.on('session.expired', () => embed.destroy());
  document.getElementById('color').onclick = () => embed.layers.color({ attribute: 'team' }).catch((e) => alert(e.code + ': ' + e.message));
  document.getElementById('logout').onclick = async () => {
    await fetch('/api/logout', { method: 'POST' }); // revokes the Netloom session on the backend
    embed.destroy();                                 // and removes the iframe
  };
</script></body></html>`;

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', ORIGIN);
  let user = signedIn(req);
  if (url.pathname === '/') {
    if (!user) {
      // Demo sign-in: a real app authenticates its user here.
      const sid = randomUUID();
      user = { userId: 'demo-user-1', netloomSessions: new Set() };
      users.set(sid, user);
      res.setHeader('set-cookie', `host_sid=${sid}; HttpOnly; SameSite=Lax; Path=/`);
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    return;
  }
  if (!user) return void res.writeHead(401).end();
  if (url.pathname === '/api/netloom/session' && req.method === 'POST') {
    // Provision (idempotent) the managed user, grant the network, create a session for this origin.
    await netloom('PUT', `/embed/users/${user.userId}`, { displayName: 'Demo user' });
    await netloom('PUT', `/embed/users/${user.userId}/networks/${NETWORK_ID}`, { permission: 'View' });
    const s = await netloom('POST', '/embed/sessions', { externalId: user.userId, networkIds: [NETWORK_ID], origin: ORIGIN, maxMinutes: 60, header: 'title' });
    user.netloomSessions.add(String(s.sessionId));
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sessionId: s.sessionId }));
    return;
  }
  const m = /^\/api\/netloom\/launch-token\/([\w-]+)$/.exec(url.pathname);
  if (m && req.method === 'POST') {
    // The rule: a session id alone never yields a launch token; the signed-in user must own it.
    if (!user.netloomSessions.has(m[1])) return void res.writeHead(403).end();
    const { launchToken } = await netloom('POST', `/embed/sessions/${m[1]}/launch-tokens`);
    res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end(String(launchToken));
    return;
  }
  if (url.pathname === '/api/logout' && req.method === 'POST') {
    for (const id of user.netloomSessions) await netloom('DELETE', `/embed/sessions/${id}`);
    user.netloomSessions.clear();
    res.writeHead(204).end();
    return;
  }
  res.writeHead(404).end();
}

createServer((req, res) => {
  handle(req, res).catch((err) => {
    console.error(err);
    if (!res.headersSent) res.writeHead(500).end();
  });
}).listen(PORT, '127.0.0.1', () => console.log(`host app on ${ORIGIN} (embedding ${NETLOOM})`));
