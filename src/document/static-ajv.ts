import { Ajv } from 'ajv';
import * as formatsModule from 'ajv-formats';
import { provideAjv, type AjvModule } from './ajv-instances.js';

/**
 * ajv imported, for a runtime without `require` (a browser, a service
 * worker): importing this module hands it to ajv-instances.ts. The engine
 * (createMock) imports it; the node server does not, and requires ajv only
 * when a schema is compiled at run time. ajv-formats is CommonJS: its
 * plugin is the default export, or the module.
 */
const addFormats = ((formatsModule as unknown as { default?: AjvModule['addFormats'] }).default ?? formatsModule) as AjvModule['addFormats'];
provideAjv({ Ajv, addFormats });
