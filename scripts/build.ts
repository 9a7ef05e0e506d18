// Builds the browser code: the SDK (packages/embed/dist), the viewer (packages/viewer/public/assets) and
// the web application (packages/web/dist).
// Usage: node scripts/build.ts   (npm run build; npm test runs it first)
import { buildEmbed } from '../packages/embed/build.ts';
import { buildViewer } from '../packages/viewer/build.ts';
import { buildWeb } from '../packages/web/build.ts';

const t0 = performance.now();
const [sdk, viewer, web] = await Promise.all([buildEmbed(), buildViewer(), buildWeb()]);
console.log(`built ${sdk}, ${viewer} and ${web} in ${Math.round(performance.now() - t0)} ms`);
