/**
 * The request's session ended (`DELETE /__mock/sessions/ID`, an eviction,
 * its idle time, its keys removed from Redis by a FLUSHALL) while the
 * request was being served, so what it would have
 * changed is refused rather than kept where no one can reach it. A request
 * answers it as 404 `unknown_session`; sent again, it starts the session
 * afresh. The memory store never throws it (a request there keeps the
 * session object it started with, which is then freed with it).
 */
export class SessionEnded extends Error {
  override readonly name = 'SessionEnded';
  constructor(readonly id: string | null) {
    super(`session ${id ?? '(shared)'} ended while this request was served`);
  }
}
