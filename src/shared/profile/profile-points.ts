import type { ProfilePointSpec } from './profile-point.js';
import { CREATE_PET_ANSWER_POINTS } from './points/create-pet-answer-points.js';
import { CREATE_PET_BODY_POINTS } from './points/create-pet-body-points.js';
import { CREATE_PET_NAME_POINTS } from './points/create-pet-name-points.js';
import { EVERY_OPERATION_POINTS } from './points/every-operation-points.js';
import { GET_PET_POINTS } from './points/get-pet-points.js';
import { LIST_PETS_POINTS } from './points/list-pets-points.js';

/**
 * Every point a profile sets, once each, in the order of the schema, the
 * shipped default profile and the documentation's table. A point is
 * written in the file of its operation or area under points/.
 */
export const PROFILE_POINTS = [...EVERY_OPERATION_POINTS, ...LIST_PETS_POINTS, ...CREATE_PET_ANSWER_POINTS, ...CREATE_PET_NAME_POINTS, ...CREATE_PET_BODY_POINTS, ...GET_PET_POINTS] as const;

type AnyPoint = (typeof PROFILE_POINTS)[number];

/** A profile point's key. */
export type ProfilePoint = AnyPoint['key'];

/** Every point's choice, by key. */
export type ProfileChoices = { [Point in AnyPoint as Point['key']]: Point extends ProfilePointSpec<string, infer Choice, 'fixed' | 'query-parameter'> ? Choice : never };

/** The points the harness notes as the refused values of listPets' query parameter of the same name. */
export type QueryParameterProfilePoint = Extract<AnyPoint, { noted: 'query-parameter' }>['key'];

/** The points the harness notes under their own key. */
export type FixedProfilePoint = Exclude<ProfilePoint, QueryParameterProfilePoint>;
