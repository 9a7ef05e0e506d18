/**
 * The ForceAtlas2 web worker, built to /embed/assets/layout-worker.js (a same-origin script: the embed
 * page's CSP `default-src 'self'` forbids the blob: worker that graphology-layout-forceatlas2's own
 * supervisor creates). The body is the library's own worker function.
 */
import worker from 'graphology-layout-forceatlas2/webworker.js';

worker();
