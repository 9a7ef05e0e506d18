/**
 * Wire types of the Surveys pages: `Static<>` of the shared contract's schemas (@netloom/protocol/http,
 * surveys.ts and people.ts), never written out here.
 */
import type { Static } from 'typebox';
import type {
  CustomFieldListSchema,
  CustomFieldSchema,
  DeletedSchema,
  DeliveriesSchema,
  EmployeeListSchema,
  EmployeeSchema,
  QuestionSchema,
  ResponseDeletedSchema,
  ResponseListSchema,
  ResponseSchema,
  SelectorSchema,
  SurveyBody,
  SurveyCopyBody,
  SurveyLinkSchema,
  SurveyLinksSchema,
  SurveyListSchema,
  SurveyNetworksBody,
  SurveyNetworksPreviewSchema,
  SurveyNetworksResultSchema,
  SurveySchema,
  SurveyShareBody,
  SurveySharesSchema,
  TrackingSchema,
} from '@netloom/protocol/http';

export type Survey = Static<typeof SurveySchema>;
export type SurveyStatus = Survey['status'];
export type Privacy = Survey['privacy'];
export type SurveyInput = Static<typeof SurveyBody>;
export type SurveyDeleted = Static<typeof DeletedSchema>;
export type SurveyList = Static<typeof SurveyListSchema>;
export type CopyInput = Static<typeof SurveyCopyBody>;
export type Question = Static<typeof QuestionSchema>;
export type QuestionType = Question['type'];
export type Selector = Static<typeof SelectorSchema>;
export type SurveyShares = Static<typeof SurveySharesSchema>;
export type SurveyShare = SurveyShares['shares'][number];
export type SurveyShareInput = Static<typeof SurveyShareBody>;
export type SurveyLink = Static<typeof SurveyLinkSchema>;
export type SurveyLinks = Static<typeof SurveyLinksSchema>;
export type Tracking = Static<typeof TrackingSchema>;
export type Deliveries = Static<typeof DeliveriesSchema>;
export type SurveyResponse = Static<typeof ResponseSchema>;
export type ResponseList = Static<typeof ResponseListSchema>;
export type ResponseDeleted = Static<typeof ResponseDeletedSchema>;
export type CustomField = Static<typeof CustomFieldSchema>;
export type CustomFieldList = Static<typeof CustomFieldListSchema>;
export type Employee = Static<typeof EmployeeSchema>;
export type EmployeeList = Static<typeof EmployeeListSchema>;
export type NetworksInput = Static<typeof SurveyNetworksBody>;
export type NetworksPreview = Static<typeof SurveyNetworksPreviewSchema>;
export type NetworksResult = Static<typeof SurveyNetworksResultSchema>;
