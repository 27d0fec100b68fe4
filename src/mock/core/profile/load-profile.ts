import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { precompiledOrCompiled, validatorKey } from '../../../document/precompiled-validators.js';
import { parseYaml } from '../../../shared/parse-yaml.js';
import { PROFILE_VERSION, defaultProfilePath, profileSchemaPath, type Profile, type ProfileFile } from '../../../shared/profile/profile.js';
import { describeSchemaErrors } from '../scenarios/describe-schema-errors.js';
import { compileScenarioSchema, SCENARIO_AJV_OPTIONS } from '../scenarios/scenario-schema.js';
import { displayPath } from '../scenarios/find-scenario.js';
import { failed, ok, type Result } from '../result.js';

/** A profile that loaded, and the file it came from, as messages show it. */
export interface LoadedProfile {
  profile: Profile;
  file: string;
}

let compiled: ValidateFunction | undefined;

/** The profile schema's key among the build's precompiled validators (scripts/build-validators.ts), from its text as it is now. */
export const profileSchemaKey = (schemaText: string): string => validatorKey('profile-schema', JSON.stringify(SCENARIO_AJV_OPTIONS), schemaText);

/**
 * The profile schema's validator: precompiled by the build, as the scenario
 * schema's (with the same options: both describe the mock's own files), so
 * a start with the default profile neither loads ajv nor compiles; one
 * edited since the build is compiled here.
 */
function profileValidator(): ValidateFunction {
  if (!compiled) {
    const text = readFileSync(profileSchemaPath(), 'utf8');
    compiled = precompiledOrCompiled(profileSchemaKey(text), () => compileScenarioSchema(text));
  }
  return compiled;
}

/**
 * Reads a profile (YAML, or JSON) and checks it: its version first, so a
 * file of another version is told so rather than given a list of schema
 * errors; then profiles/profile.schema.json (strict, as the scenario
 * schema). A file that fails is
 * refused with `<file>: <JSONPath> <reason>`, every problem joined with `; `.
 */
export function loadProfile(file: string): Result<LoadedProfile, string> {
  const checked = checkProfileFile(file);
  if (!checked.ok) return checked;
  // A point left out keeps the mock's own choice.
  const { profile, file: shown } = checked.value;
  const own = loadDefaultProfile().profile.choices;
  const choices = { ...own, ...profile.choices };
  // A petId answer given without `reads` keeps the mock's own reading of ids (leading zeros).
  if (choices['pet-id'].reads === undefined) choices['pet-id'] = { ...choices['pet-id'], reads: own['pet-id'].reads ?? [] };
  return ok({ file: shown, profile: { ...profile, choices } });
}

function checkProfileFile(file: string): Result<{ profile: ProfileFile; file: string }, string> {
  const shown = displayPath(file);
  const refuse = (problems: readonly string[]) => failed(`${shown}: ${problems.join('; ')}`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return refuse([`cannot be read: ${(error as Error).message}`]);
  }
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    return refuse([`cannot be read as YAML or JSON: ${(error as Error).message.split('\n', 1)[0]}`]);
  }
  const version = typeof data === 'object' && data !== null ? (data as { version?: unknown }).version : undefined;
  if (typeof version === 'number' && version !== PROFILE_VERSION) {
    return refuse([`$.version is ${JSON.stringify(version)}: this mock reads profiles of version ${PROFILE_VERSION}`]);
  }
  const validate = profileValidator();
  if (!validate(data)) return refuse(describeSchemaErrors(validate.errors ?? []));
  return ok({ profile: data as ProfileFile, file: shown });
}

let defaultProfile: LoadedProfile | undefined;

/** The mock's own choices (profiles/default.yaml, which has every one); a shipped file that does not load is a broken install. */
export function loadDefaultProfile(): LoadedProfile {
  if (defaultProfile) return defaultProfile;
  const loaded = checkProfileFile(defaultProfilePath());
  if (!loaded.ok) throw new Error(`the shipped default profile does not load: ${loaded.error}`);
  // Every choice is there: a test compares its keys with the schema's.
  defaultProfile = loaded.value as LoadedProfile;
  return defaultProfile;
}
