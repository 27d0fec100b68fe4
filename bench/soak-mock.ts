/**
 * The mock as `npm run bench:soak` runs it: this file imports the built
 * command line (dist/src/mock/bin.js), which reads its flags from this
 * process's argv as it would started as `animal-store-mock`, so the process
 * measured is the real mock with its default flags. The only addition: once
 * a second, `process.memoryUsage()` goes to the benchmark over the IPC
 * channel, since heap figures cannot be read from outside without an
 * inspector, which would weigh on the very memory measured.
 */
const SAMPLE_MS = 1000;

const timer = setInterval(() => {
  // The channel closes when the benchmark ends; a sample then has nobody to go to.
  if (process.connected) process.send?.({ memory: process.memoryUsage() });
}, SAMPLE_MS);
// Sampling must never keep the mock alive on its own.
timer.unref();

await import('../src/mock/bin.js');
