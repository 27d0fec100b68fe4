/** A progress line, on stderr so that stdout carries only the report. */
export function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}
