/** Wire types of the compare view: `Static<>` of the contract's schemas (@netloom/protocol/http, analysis.ts and surveys.ts). */
import type { Static } from 'typebox';
import type { DifferenceNetworkSchema, NetworkCompareSchema, SurveyCompareSchema } from '@netloom/protocol/http';

export type Comparison = Static<typeof NetworkCompareSchema>;
export type WaveComparison = Static<typeof SurveyCompareSchema>;
export type DifferenceNetwork = Static<typeof DifferenceNetworkSchema>;
