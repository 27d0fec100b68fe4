import { readFileSync } from 'node:fs';
import { profileSchemaPath } from '../../src/shared/profile/profile-paths.js';
import type { ProfilePoint } from '../../src/shared/profile/profile-points.js';

type SchemaNode = { [key: string]: unknown };

let schema: SchemaNode | undefined;

/**
 * The statuses a profile may give an Error answer at `point`, read from
 * profiles/profile.schema.json, as an editor or any other tool reads it: a
 * target's answer with another status cannot be served by the mock there.
 */
export function profileStatuses(point: ProfilePoint): readonly number[] {
  return statusEnum(pointSchema(point)) ?? [];
}

function pointSchema(point: ProfilePoint): SchemaNode | undefined {
  schema ??= JSON.parse(readFileSync(profileSchemaPath(), 'utf8')) as SchemaNode;
  const choices = (schema.properties as SchemaNode).choices as SchemaNode;
  return (choices.properties as SchemaNode)[point] as SchemaNode | undefined;
}

/** The first `status` enum found below `node`, depth first. */
function statusEnum(node: unknown): number[] | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const status = ((node as SchemaNode).properties as SchemaNode | undefined)?.status as SchemaNode | undefined;
  if (Array.isArray(status?.enum)) return status.enum as number[];
  for (const child of Object.values(node)) {
    const found = statusEnum(child);
    if (found) return found;
  }
  return undefined;
}
