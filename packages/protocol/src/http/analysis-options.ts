/**
 * Plain data of the analysis endpoints (docs/api/analysis.md), kept apart from their schemas so the web
 * app can take it without TypeBox (packages/web/test/bundle.test.ts).
 *
 * The node metric a comparison's "biggest movers" are ranked by when a client asks for one without choosing
 * (the web app's Compare page): change in total degree — who gained or lost the most ties. One name in the
 * contract, so no web or viewer file spells a metric id (docs/architecture.md "add a metric").
 */
export const COMPARE_MOVERS_METRIC = 'totalDegree';
