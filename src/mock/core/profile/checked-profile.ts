import type { ValidateFunction } from 'ajv';
import { precompiledOrCompiled, validatorKey } from '../../../document/precompiled-validators.js';
import { readYaml } from '../../../shared/parse-yaml.js';
import { PROFILE_VERSION, type Profile, type ProfileFile } from '../../../shared/profile/profile.js';
import { shippedText } from '../../../shared/shipped-file.js';
import { describeSchemaErrors } from '../scenarios/describe-schema-errors.js';
import { compileScenarioSchema, SCENARIO_AJV_OPTIONS } from '../scenarios/scenario-schema.js';
import { failed, ok, type Result } from '../result.js';

/** A profile that loaded, and where it came from, as messages show it. */
export interface LoadedProfile {
  profile: Profile;
  file: string;
}

let compiled: ValidateFunction | undefined;

/** The profile schema's key among the build's precompiled validators (scripts/build-validators.ts), from its text. */
export const profileSchemaKey = (schemaText: string): string => validatorKey('profile-schema', JSON.stringify(SCENARIO_AJV_OPTIONS), schemaText);

/**
 * The profile schema's validator (profiles/profile.schema.json): precompiled
 * by the build, as the scenario schema's (with the same options: both
 * describe the mock's own files), so a start with the default profile
 * neither loads ajv nor compiles in the node server.
 */
function profileValidator(): ValidateFunction {
  if (!compiled) {
    const text = shippedText('profiles/profile.schema.json');
    compiled = precompiledOrCompiled(profileSchemaKey(text), () => compileScenarioSchema(text));
  }
  return compiled;
}

/**
 * Checks a profile read from YAML or JSON (`shown`: where it came from, as
 * messages name it): its version first, so one of another version is told
 * so rather than given a list of schema errors; then the profile schema
 * (strict, as the scenario schema). A profile that fails is refused with
 * `<shown>: <JSONPath> <reason>`, every problem joined with `; `. A point
 * left out keeps the mock's own choice.
 */
export function checkProfile(data: unknown, shown: string): Result<LoadedProfile, string> {
  const checked = checkProfileData(data, shown);
  if (!checked.ok) return checked;
  const own = loadDefaultProfile().profile.choices;
  const choices = { ...own, ...checked.value.choices };
  // A petId answer given without `reads` keeps the mock's own reading of ids (leading zeros).
  if (choices['pet-id'].reads === undefined) choices['pet-id'] = { ...choices['pet-id'], reads: own['pet-id'].reads ?? [] };
  return ok({ file: shown, profile: { ...checked.value, choices } });
}

function checkProfileData(data: unknown, shown: string): Result<ProfileFile, string> {
  const refuse = (problems: readonly string[]) => failed(`${shown}: ${problems.join('; ')}`);
  const version = typeof data === 'object' && data !== null ? (data as { version?: unknown }).version : undefined;
  if (typeof version === 'number' && version !== PROFILE_VERSION) {
    return refuse([`$.version is ${JSON.stringify(version)}: this mock reads profiles of version ${PROFILE_VERSION}`]);
  }
  const validate = profileValidator();
  if (!validate(data)) return refuse(describeSchemaErrors(validate.errors ?? []));
  return ok(data as ProfileFile);
}

/** Parses a profile's text (YAML, or JSON) as `checkProfile` takes it, or says why it cannot be read. */
export function parseProfileText(text: string, shown: string): Result<unknown, string> {
  const read = readYaml(text);
  return read.ok ? read : failed(`${shown}: ${read.error}`);
}

let defaultProfile: LoadedProfile | undefined;

/** The mock's own choices (profiles/default.yaml, which has every one); a shipped file that does not load is a broken build. */
export function loadDefaultProfile(): LoadedProfile {
  if (defaultProfile) return defaultProfile;
  const shown = 'profiles/default.yaml';
  const parsed = parseProfileText(shippedText(shown), shown);
  const loaded = parsed.ok ? checkProfileData(parsed.value, shown) : parsed;
  if (!loaded.ok) throw new Error(`the shipped default profile does not load: ${loaded.error}`);
  // Every choice is there: a test compares its keys with the schema's.
  defaultProfile = { file: shown, profile: loaded.value as Profile };
  return defaultProfile;
}
