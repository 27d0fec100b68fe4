import type { Contract } from '../../../document/contract.js';
import type { ResponseValidator } from '../../../document/response-validator.js';
import { recording } from '../../core/proxy/recording.js';
import { RECORDED_SCENARIO, recordingFolder } from '../../core/proxy/recording-folder.js';
import type { Exchange } from '../exchange.js';
import type { TargetAnswer } from './forward.js';
import type { ProxyOutcome } from './proxy-outcome.js';
import { recordAnswer } from './record-answer.js';

export interface RecorderOptions {
  dir: string;
  contract: Contract;
  validator: ResponseValidator;
  basePath: string;
  upstreamKey: string | undefined;
  tell(level: 'info' | 'warn' | 'error', message: string): void;
}

/** What `GET /__mock/recording` shows. */
export interface RecordingStatus {
  active: boolean;
  dir: string;
  scenario: string;
  animals: number;
  stubs: number;
}

/** `--record`'s recording, as proxy mode and the admin API use it. */
export interface Recorder {
  /** Each checked exchange, while active. */
  record(x: Exchange, answer: TargetAnswer, outcome: ProxyOutcome): void;
  status(): RecordingStatus;
  /** Records again from now on. */
  start(): RecordingStatus;
  /** Records nothing more until started again, and writes what it has now. */
  stop(): RecordingStatus;
  /** Writes the last changes (the mock stopping). */
  flush(): void;
}

/**
 * `--record DIR`: active from the start; the admin API stops and starts it
 * (`POST /__mock/recording/stop`, `…/start`), never elsewhere than DIR: the
 * folder is the command line's to choose, not a request's.
 */
export function recorder({ dir, contract, validator, basePath, upstreamKey, tell }: RecorderOptions): Recorder {
  const recorded = recording();
  const folder = recordingFolder({ dir, contract, recording: recorded, tell });
  const answerOptions = { recording: recorded, validator, basePath, upstreamKey };
  let active = true;
  const status = (): RecordingStatus => ({ active, dir, scenario: RECORDED_SCENARIO, ...recorded.counts() });
  return {
    record(x, answer, outcome) {
      if (!active) return;
      const before = recorded.version;
      recordAnswer(answerOptions, x, answer, outcome);
      if (recorded.version !== before) folder.changed();
    },
    status,
    start() {
      active = true;
      return status();
    },
    stop() {
      active = false;
      folder.flush();
      return status();
    },
    flush: () => folder.flush(),
  };
}
