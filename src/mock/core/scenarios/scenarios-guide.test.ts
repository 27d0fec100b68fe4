import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { load as parse } from 'js-yaml';
import { loadContract } from '../../../document/load-contract.js';
import { packageRoot } from '../../../shared/package-root.js';
import { scenarioFolder } from '../../../../test/support/scenario-folder.js';
import { defaultScenariosDir, listScenarios } from './find-scenario.js';
import { loadScenarioFile } from './load-scenario.js';

/** The guides on scenarios and on the admin API, checked against what ships, so they cannot drift apart. */
const guide = readFileSync(join(packageRoot(), 'docs', 'scenarios-and-faults.md'), 'utf8');
const adminGuide = readFileSync(join(packageRoot(), 'docs', 'admin-and-console.md'), 'utf8');
const folder = scenarioFolder();
/** A guide's `## heading` section, to the next `## `. */
const section = (text: string, heading: string): string => {
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no "## ${heading}" in the guide`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
};

describe('the guides on scenarios', () => {
  it('lists every shipped scenario, each with its npm start line', () => {
    const listed = listScenarios(defaultScenariosDir());
    if (!listed.ok) throw new Error(listed.error);
    const rows = [...section(guide, 'The shipped scenarios').matchAll(/^\| `([a-z-]+)` \| .* \| `(npm start[^`]*)` \|$/gm)].map((m) => [m[1], m[2]]);
    expect(rows.map(([name]) => name).sort()).toEqual([...listed.value.keys()].sort());
    for (const [name, command] of rows) expect(command).toBe(name === 'default' ? 'npm start' : `npm start -- --scenario ${name}`);
  });

  it('gives an example file that loads', () => {
    const example = /```yaml\n([\s\S]*?)```/.exec(section(guide, 'The file format'))?.[1];
    expect(example).toBeDefined();
    const name = (parse(example as string) as { name: string }).name;
    const file = folder.write(`${name}.yaml`, example as string);
    const loaded = loadScenarioFile(loadContract(), file);
    expect(loaded.ok ? 'loaded' : loaded.error).toBe('loaded');
  });

  it('documents every operation of openapi/mock-admin.yaml in its table, with a curl example', () => {
    const admin = section(adminGuide, 'The admin API');
    const document = parse(readFileSync(join(packageRoot(), 'openapi', 'mock-admin.yaml'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).filter((key) => ['get', 'put', 'post', 'delete'].includes(key)).map((method) => [method.toUpperCase(), path] as const),
    );
    expect(operations.length).toBeGreaterThanOrEqual(10);
    for (const [method, path] of operations) {
      // The table writes a path parameter in capitals (`{name}` → NAME); the curl lines use a real value.
      expect(admin).toContain(`| \`${method} /__mock${path.replace(/\{(\w+)\}/g, (_, name: string) => name.toUpperCase())}\` |`);
      // A file name has a dot (`/console/{file}`); a stream's example is `curl -N`, and may add a query.
      const concrete = path.replace(/\{\w+\}/g, '[a-z.-]+');
      expect(admin).toMatch(new RegExp(`curl -[sN] ${method === 'GET' ? '' : `-X ${method} .*`}'?http://localhost:4010/__mock${concrete}(\\?[^\n']*)?'?\n`));
    }
  });
});
