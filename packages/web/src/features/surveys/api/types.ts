/**
 * Wire types of the Surveys pages: `Static<>` of the shared contract's schemas (@netloom/protocol/http
 * surveys.ts), never written out here. The directory's (people, custom fields) are people/api/types.ts.
 */
import type { Static } from 'typebox';
import type * as C from '@netloom/protocol/http';

export type Survey = Static<typeof C.SurveySchema>;
export type SurveyStatus = Survey['status'];
export type Privacy = Survey['privacy'];
export type SurveyInput = Static<typeof C.SurveyBody>;
export type SurveyDeleted = Static<typeof C.DeletedSchema>;
export type SurveyList = Static<typeof C.SurveyListSchema>;
export type CopyInput = Static<typeof C.SurveyCopyBody>;
export type Question = Static<typeof C.QuestionSchema>;
export type QuestionType = Question['type'];
export type Selector = Static<typeof C.SelectorSchema>;
export type SurveyShares = Static<typeof C.SurveySharesSchema>;
export type SurveyShare = SurveyShares['shares'][number];
export type SurveyShareInput = Static<typeof C.SurveyShareBody>;
export type SurveyLink = Static<typeof C.SurveyLinkSchema>;
export type SurveyLinks = Static<typeof C.SurveyLinksSchema>;
export type Tracking = Static<typeof C.TrackingSchema>;
export type Deliveries = Static<typeof C.DeliveriesSchema>;
export type SurveyResponse = Static<typeof C.ResponseSchema>;
export type ResponseList = Static<typeof C.ResponseListSchema>;
export type ResponseDeleted = Static<typeof C.ResponseDeletedSchema>;
export type NetworksInput = Static<typeof C.SurveyNetworksBody>;
export type NetworksPreview = Static<typeof C.SurveyNetworksPreviewSchema>;
export type NetworksResult = Static<typeof C.SurveyNetworksResultSchema>;
