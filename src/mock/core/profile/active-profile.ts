import type { ProfileChoices } from '../../../shared/profile/profile-points.js';
import { loadDefaultProfile, type LoadedProfile } from './checked-profile.js';

/**
 * The profile the mock answers by now. Read at each request, so a reload
 * (watch-profile.ts) applies to the next request, in every session alike:
 * a profile is the server's choices, not a session's state.
 */
export interface ActiveProfile {
  readonly current: LoadedProfile;
  readonly choices: ProfileChoices;
  replace(next: LoadedProfile): void;
}

export function activeProfile(start: LoadedProfile = loadDefaultProfile()): ActiveProfile {
  let current = start;
  return {
    get current() {
      return current;
    },
    get choices() {
      return current.profile.choices;
    },
    replace(next) {
      current = next;
    },
  };
}
