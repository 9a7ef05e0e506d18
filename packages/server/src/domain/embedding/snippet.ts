/**
 * The organization console's "try it" snippet (docs/embedding.md §2–3): for a session just created, the
 * host backend handler (provision the managed user, grant, create the session, hand out launch tokens)
 * and the page's `Embed.create` call, filled in with that session's values. Never contains a secret: the
 * organization credential appears as the placeholder `process.env.NETLOOM_TOKEN`.
 */
export interface SnippetInput {
  /** The service's public URL (`https://netloom.example.com`). */
  publicUrl: string;
  sessionId: string;
  externalId: string;
  displayName: string;
  networkId: string;
  permission: 'View' | 'Edit';
  origin: string;
  maxMinutes: number;
}

export interface EmbedSnippet {
  backend: string;
  page: string;
}

const js = (v: string | number) => JSON.stringify(v);

export function embedSnippet(s: SnippetInput): EmbedSnippet {
  const base = s.publicUrl.replace(/\/+$/, '');
  const backend = `// Host backend (Node 18+, Express-style). The organization credential (embed:manage) stays here.
const NETLOOM = ${js(`${base}/api/v2`)};
const netloom = (method, path, body) =>
  fetch(NETLOOM + path, {
    method,
    headers: { authorization: \`Bearer \${process.env.NETLOOM_TOKEN}\`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => { if (!r.ok) throw new Error(\`Netloom \${r.status}: \${(await r.json()).message}\`); return r.json(); });

app.post('/api/netloom/session', async (req, res) => {
  // In your app the user is req.user; this session was made for ${js(s.externalId)}.
  await netloom('PUT', \`/embed/users/\${encodeURIComponent(${js(s.externalId)})}\`, { displayName: ${js(s.displayName)} });
  await netloom('PUT', \`/embed/users/\${encodeURIComponent(${js(s.externalId)})}/networks/${s.networkId}\`, { permission: ${js(s.permission)} });
  const session = await netloom('POST', '/embed/sessions', {
    externalId: ${js(s.externalId)}, networkIds: [${js(s.networkId)}], origin: ${js(s.origin)}, maxMinutes: ${s.maxMinutes},
  });
  // Remember that this user owns session.sessionId (a session id alone must never yield a token).
  res.json({ sessionId: session.sessionId });
});

app.post('/api/netloom/launch-token/:sessionId', async (req, res) => {
  // Check here that the signed-in user owns req.params.sessionId.
  const { launchToken } = await netloom('POST', \`/embed/sessions/\${req.params.sessionId}/launch-tokens\`);
  res.set('cache-control', 'no-store').type('text/plain').send(launchToken);
});
`;
  const page = `<div id="viewer" style="height: 600px"></div>
<script type="module">
  import Embed from ${js(`${base}/sdk/embed.js`)};

  // The console created session ${s.sessionId} for you; in your app, ask your backend for one:
  // const { sessionId } = await fetch('/api/netloom/session', { method: 'POST' }).then((r) => r.json());
  const sessionId = ${js(s.sessionId)};
  const embed = await Embed.create(document.getElementById('viewer'), {
    sessionId,
    getLaunchToken: (id) => fetch(\`/api/netloom/launch-token/\${id}\`, { method: 'POST' })
      .then((r) => { if (!r.ok) throw new Error('no launch token'); return r.text(); }),
  }); // resolves once the network is drawn (page origin must be ${s.origin})
  embed.on('session.expired', () => embed.destroy());
</script>
`;
  return { backend, page };
}
