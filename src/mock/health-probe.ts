/**
 * The container's health check: `node dist/src/mock/health-probe.js` asks
 * this machine's mock for `GET /__mock/health` and exits 0 on a 200, 1 on
 * any other status, on no answer within 4 s, or on a network error.
 *
 * A file of its own, so that the check is a command whose arguments hold no
 * space: Podman's Docker-compatible API (which Docker Compose drives on
 * Podman) joins an exec-form health check's arguments and splits them again
 * on whitespace, so a `node -e '<script>'` check fails there.
 *
 * It reads the port from `PORT` (the image's, or `-e PORT=…`; a `--port`
 * flag is not visible here) and sends `MOCK_ADMIN_KEY` when it is set, as
 * the health endpoint then asks for it. Nothing is printed: the key is never
 * in its output.
 */
const key = process.env.MOCK_ADMIN_KEY;
const port = process.env.PORT || '4010';

fetch(`http://127.0.0.1:${port}/__mock/health`, {
  headers: key ? { authorization: `Bearer ${key}` } : {},
  signal: AbortSignal.timeout(4000),
}).then(
  (answer) => process.exit(answer.status === 200 ? 0 : 1),
  () => process.exit(1),
);
