/** Lets the process exit while `timer` is pending: node's timers can say so; a browser's (numbers) need not. */
export function unrefTimer(timer: ReturnType<typeof setTimeout>): void {
  (timer as { unref?: () => void }).unref?.();
}
