/**
 * How long a stop waits for requests in flight by default (10 s,
 * `--shutdown-grace`): within docker stop's 10 s and Kubernetes' default
 * terminationGracePeriodSeconds (30 s), so the mock has answered before
 * either sends SIGKILL.
 */
export const SHUTDOWN_GRACE_MS = 10_000;
/** The longest `--shutdown-grace` (an hour): longer than any orchestrator's default, short enough that a typo is noticed. */
export const MAX_SHUTDOWN_GRACE_S = 3600;
