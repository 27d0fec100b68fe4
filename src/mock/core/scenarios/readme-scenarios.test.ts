import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { load as parse } from 'js-yaml';
import { loadContract } from '../../../document/load-contract.js';
import { packageRoot } from '../../../shared/package-root.js';
import { scenarioFolder } from '../../../../test/support/scenario-folder.js';
import { defaultScenariosDir, listScenarios } from './find-scenario.js';
import { loadScenarioFile } from './load-scenario.js';

/** The README's "Scenarios (for QA)" section, checked against what ships, so the two cannot drift apart. */
const readme = readFileSync(join(packageRoot(), 'README.md'), 'utf8');
const folder = scenarioFolder();
const section = readme.slice(readme.indexOf('## Scenarios (for QA)'), readme.indexOf('\n## ', readme.indexOf('## Scenarios (for QA)') + 1));

describe('the README on scenarios', () => {
  it('lists every shipped scenario, each with its npm start line', () => {
    const listed = listScenarios(defaultScenariosDir());
    if (!listed.ok) throw new Error(listed.error);
    const rows = [...section.matchAll(/^\| `([a-z-]+)` \| .* \| `(npm start[^`]*)` \|$/gm)].map((m) => [m[1], m[2]]);
    expect(rows.map(([name]) => name).sort()).toEqual([...listed.value.keys()].sort());
    for (const [name, command] of rows) expect(command).toBe(name === 'default' ? 'npm start' : `npm start -- --scenario ${name}`);
  });

  it('gives an example file that loads', () => {
    const example = /### The file format[\s\S]*?```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example).toBeDefined();
    const name = (parse(example as string) as { name: string }).name;
    const file = folder.write(`${name}.yaml`, example as string);
    const loaded = loadScenarioFile(loadContract(), file);
    expect(loaded.ok ? 'loaded' : loaded.error).toBe('loaded');
  });

  it('documents every operation of openapi/mock-admin.yaml in its table, with a curl example', () => {
    const admin = section.slice(section.indexOf('### The admin API'), section.indexOf('### Hot reload'));
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
