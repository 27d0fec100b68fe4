/**
 * How long a stop waits for requests in flight by default (8 s,
 * `--shutdown-grace`): a stop not done a second past it exits, so the
 * process is gone within 9 s, inside docker stop's (and Compose's) 10 s
 * and Kubernetes' default terminationGracePeriodSeconds (30 s): the mock
 * closes what is left itself before either sends SIGKILL. A grace equal to
 * docker stop's 10 s met the SIGKILL with a request in flight.
 */
export const SHUTDOWN_GRACE_MS = 8_000;
/** The longest `--shutdown-grace` (an hour): longer than any orchestrator's default, short enough that a typo is noticed. */
export const MAX_SHUTDOWN_GRACE_S = 3600;
