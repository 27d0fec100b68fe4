/**
 * How long a stop waits for requests in flight (10 s): within docker
 * stop's 10 s and Kubernetes' default terminationGracePeriodSeconds (30 s),
 * so the mock has answered before either sends SIGKILL.
 */
export const SHUTDOWN_GRACE_MS = 10_000;
