import type { ProfileChoices, ProfilePoint } from './profile-points.js';

/**
 * A profile: what a server chose where the interface is silent, one
 * choice per point the contract harness observes (profile-points.ts lists
 * them). The harness writes one from a run (`--write-profile`); the mock
 * answers by one (`--profile`). Only choices the interface leaves open can
 * be written: each answer's status is one the contract allows there, so a
 * profile can never make the mock break the contract.
 */
export const PROFILE_VERSION = 1;

/** A profile as written in its file: a point left out keeps the mock's own choice. */
export interface ProfileFile {
  version: typeof PROFILE_VERSION;
  /** Shown by the mock's health endpoint and console. */
  name: string;
  choices: Partial<ProfileChoices>;
  /** Written by the harness: for a point left out, why (not reached, answered in more than one way). */
  notes?: Partial<Record<ProfilePoint, string>>;
}

/** A profile as the mock answers by it: every choice, the mock's own where the file left one out. */
export interface Profile extends ProfileFile {
  choices: ProfileChoices;
}
