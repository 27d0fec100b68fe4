import { acceptanceDefects } from './acceptance-defects.js';
import { authDefects } from './auth-defects.js';
import { conditionalDefects } from './conditional-defects.js';
import { createDefects } from './create-defects.js';
import { errorDefects } from './error-defects.js';
import type { Defect } from './defect.js';
import { getDefects } from './get-defects.js';
import { int64Defects } from './int64-defects.js';
import { listDefects } from './list-defects.js';
import { sequenceDefects } from './sequence-defects.js';
import { variationDefects } from './variation-defects.js';
import { timeDefects } from './time-defects.js';
import { methodDefects } from './method-defects.js';
import { cacheDefects } from './cache-defects.js';
import { variationKeyDefects } from './variation-key-defects.js';
import { variationUriDefects } from './variation-uri-defects.js';
import { variationUriFormDefects } from './variation-uri-form-defects.js';
import { variationFieldDefects } from './variation-field-defects.js';
import { variationJsonDefects } from './variation-json-defects.js';
import { variationRequestDefects } from './variation-request-defects.js';
import { variationGatewayDefects } from './variation-gateway-defects.js';

/**
 * Every faulty server, each breaking one statement of animal-store-interface.md.
 * The error defects stay last: their slow getPet (the harness's 300 ms timeout)
 * takes most of vitest's 15 s per test, and runs fastest with no other runs alongside.
 */
export const DEFECTS: readonly Defect[] = [...listDefects, ...createDefects, ...getDefects, ...authDefects, ...conditionalDefects, ...acceptanceDefects, ...int64Defects, ...sequenceDefects, ...variationDefects, ...methodDefects, ...cacheDefects, ...timeDefects, ...variationKeyDefects, ...variationUriDefects, ...variationUriFormDefects, ...variationFieldDefects, ...variationRequestDefects, ...variationJsonDefects, ...variationGatewayDefects, ...errorDefects];

const names = new Set<string>();
for (const defect of DEFECTS) {
  if (names.has(defect.name)) throw new Error(`duplicate defect name ${defect.name}`);
  if (!defect.wrap && !defect.catalogue) throw new Error(`defect ${defect.name} changes nothing`);
  names.add(defect.name);
}
