// Builds the browser code: the SDK (packages/embed/dist) and the viewer (packages/viewer/public/assets).
// Usage: node scripts/build.ts   (npm run build; npm test runs it first)
import { buildEmbed } from '../packages/embed/build.ts';
import { buildViewer } from '../packages/viewer/build.ts';

const t0 = performance.now();
const [sdk, viewer] = await Promise.all([buildEmbed(), buildViewer()]);
console.log(`built ${sdk} and ${viewer} in ${Math.round(performance.now() - t0)} ms`);
