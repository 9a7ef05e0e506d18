/** The HTML of the embed page `/embed/:sessionId` (routes/viewer/page.ts): the viewer bundle with its session id and host origin. */

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The viewer page for one session. `hostOrigin` is the session's allowed host origin: the viewer only
 * talks to a parent of that origin. No inline script or style, so the page works under a strict CSP
 * (routes/viewer/page.ts viewerCsp). `imageOrigins` (NETLOOM_VIEWER_IMAGE_ORIGINS) tells the viewer which
 * node image URLs it may load; it never asks for any other (the CSP would refuse it anyway).
 */
export function renderViewerPage(opts: { sessionId: string; hostOrigin: string; apiBase?: string; assetBase?: string; imageOrigins?: readonly string[] }): string {
  const assets = opts.assetBase ?? '/embed/assets';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Network viewer</title>
<link rel="stylesheet" href="${escapeAttr(assets)}/viewer.css">
<script type="module" src="${escapeAttr(assets)}/viewer.js"></script>
</head>
<body>
<div id="netloom-viewer" data-session-id="${escapeAttr(opts.sessionId)}" data-host-origin="${escapeAttr(opts.hostOrigin)}"${opts.apiBase ? ` data-api-base="${escapeAttr(opts.apiBase)}"` : ''} data-image-origins="${escapeAttr((opts.imageOrigins ?? []).join(' '))}"></div>
</body>
</html>
`;
}
