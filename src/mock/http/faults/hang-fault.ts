import type { FaultOptions } from '../../core/faults/fault-kinds.js';
import { nodeBindings } from '../node-bindings.js';
import { noAnswer } from '../respond.js';
import { onShutdown } from '../on-shutdown.js';
import type { FaultBehaviour } from './fault-behaviour.js';

/** `hang`: answers nothing until the connection closes: the client gives up, or the server shuts down. */
export const hangFault: FaultBehaviour<FaultOptions['hang']> = async (x, _next, _options, { shutdown }) => {
  const node = nodeBindings(x.c);
  await new Promise<void>((resolve) => {
    const close = (): void => {
      node?.incoming.socket.destroy();
      resolve();
    };
    const forget = onShutdown(shutdown, close);
    node?.outgoing.once('close', () => {
      forget();
      resolve();
    });
  });
  return noAnswer();
};
