import { describe, it } from 'vitest';
import type { DriftGroup } from '../../verdict/drift-report.js';
import { questionOf } from '../silent-log.js';
import { setApartNotCopied } from './not-copied.js';

const group = (cause: string): DriftGroup => ({ cause, kind: 'answer', a: '404 route_not_found', b: '400 bad_path', cases: 1, example: { a: '', b: '' } });

describe('drift the mock will not copy', () => {
  it('sets apart the answers to targets RFC 3986 does not call the same, once, and keeps drift at the operations', ({ expect }) => {
    const forms = ['GET //v1/pets: status', 'GET /v1//pets 404: header Link', 'GET /V1/PETS: status', 'POST /v1/pets;x=1: status', 'GET /v1%2Fpets: status', 'GET /v1\\pets: status', 'GET /v1/pets#x: status', 'GET /v1/pets?: status', 'GET /v1/pets?&limit=2: status', 'GET /v1/pets/1?limit=2&: status', 'POST /./%561/x/%2e%2E/%50%45%54%53?_=1: status', questionOf('uri-forms')];
    const kept = ['listPets: status', 'getPet 404: header Link', 'createPet 201: header Location', 'GET /v1/pet: status', 'GET /v1/%70ets/%33: status'];
    const { groups, notCopied } = setApartNotCopied([...forms, ...kept].map(group));
    expect(groups.map((g) => g.cause)).toEqual(kept);
    expect(notCopied).toHaveLength(1);
    expect(notCopied[0]?.cases).toBe(forms.length);
  });
});
