import { docsAssets } from '../core/docs/docs-assets.js';
import { consoleFiles } from './admin/console-files.js';
import type { MockFiles } from './mock-files.js';

/** The console's and the API reference's files, read from the installed package: the node server's. */
export const packageFiles = (): MockFiles => ({ console: () => consoleFiles(), docs: (title) => docsAssets(title) });
