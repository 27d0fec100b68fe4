/**
 * Podman for the image test (image.podman.test.ts): what this machine needs
 * of it, found out rather than assumed, in this one file; the stand-in for
 * the Dockerfile's base image, built once per machine; and the build of the
 * real Dockerfile, unchanged.
 *
 * No image registry is reached: the Dockerfile's `FROM node:<version>-slim`
 * resolves to a stand-in in podman's local storage (`--pull=never`), made
 * of Debian bookworm (debootstrap, minbase) and Node's official binary from
 * the npm registry, laid out as the official image lays it out. Needs root
 * (debootstrap and chroot), as rootful podman does.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packageRoot } from '../../src/shared/package-root.js';
import { findCommand } from '../support/find-command.js';
import { nodeBinary } from '../support/node-binary.js';
import { childEnv, Processes, type Run } from '../support/processes.js';
import { PODMAN, requireServerCommand } from '../support/system-servers.js';

const ROOT = packageRoot();
const processes = new Processes();

/** The Dockerfile's base, read from its FROM lines (test/docker/verify-dockerfile.sh checks both agree). */
export function baseImage(): { tag: string; nodeVersion: string } {
  const match = /^FROM node:((\d+\.\d+\.\d+)-slim)\b/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
  if (!match) throw new Error('the Dockerfile should start FROM node:<version>-slim');
  return { tag: `node:${match[1]}`, nodeVersion: match[2] as string };
}

/** What the machine needs, as found, and the podman settings that follow from it. */
export interface Podman {
  command: string;
  /** The environment podman runs in: CONTAINERS_CONF when the machine needs settings of its own. */
  env: NodeJS.ProcessEnv;
  /** `podman build` arguments the machine needs. */
  buildArgs: string[];
  /** One line a need, for the test's report. */
  needs: string[];
  /** Removes the temporary folder of the settings. */
  dispose(): void;
}

const CGROUP2_SUPER_MAGIC = 0x63677270;
const CAP_SYS_RESOURCE = 24;

/** The effective capabilities of this process, as a bit set. */
function effectiveCapabilities(): bigint {
  const line = /^CapEff:\s*([0-9a-f]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return line ? BigInt(`0x${line[1]}`) : 0n;
}

/** The hard limit of a resource of this process, as /proc/self/limits names it. */
function hardLimit(name: string): string {
  const line = new RegExp(`^${name}\\s+\\S+\\s+(\\S+)`, 'm').exec(readFileSync('/proc/self/limits', 'utf8'));
  return line?.[1] ?? 'unlimited';
}

/** Whether HTTPS to the npm registry verifies with Node's own CA list alone (not when a proxy on the way re-signs it). */
async function registryTrustedByNode(): Promise<boolean> {
  const env = childEnv();
  delete env.NODE_EXTRA_CA_CERTS;
  const probe = await processes.run(
    process.execPath,
    [
      '--use-bundled-ca',
      '-e',
      `fetch('https://registry.npmjs.org/', { method: 'HEAD', signal: AbortSignal.timeout(20000) }).then(() => process.exit(0), (e) => { console.error(String(e.cause ?? e)); process.exit(1); })`,
    ],
    { env },
  );
  if (probe.code === 0) return true;
  // Only a certificate the bundled list cannot verify is this need; any other failure (no network) the build reports itself.
  return !/certificate|self.signed|unable to (get|verify)/i.test(probe.stderr);
}

/** Finds out what podman needs on this machine and writes the settings for it into a temporary folder. */
export async function preparePodman(): Promise<Podman> {
  const command = requireServerCommand(PODMAN);
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-podman-'));
  const needs: string[] = [];
  const engine: string[] = [];
  const containers: string[] = [];
  const buildArgs: string[] = [];

  // Cgroups v1 or hybrid (no unified cgroup2 at /sys/fs/cgroup): crun's support for them is partial, runc's is whole.
  if (statfsSync('/sys/fs/cgroup').type !== CGROUP2_SUPER_MAGIC) {
    const runc = findCommand('runc', ['/usr/sbin']);
    if (runc === undefined) throw new Error('cgroups v1 here: podman needs runc (Debian: apt-get install runc)');
    engine.push(`runtime = "${runc}"`);
    needs.push('cgroups v1 or hybrid: the runc runtime');
  }

  // Without CAP_SYS_RESOURCE a container's limits cannot go above this process's own, yet podman as root asks
  // for more (1048576 open files and processes). So each container gets the hard limits this process has;
  // for processes at most kernel.pid_max, which is what podman's own processes were seen to run with.
  if ((effectiveCapabilities() & (1n << BigInt(CAP_SYS_RESOURCE))) === 0n) {
    const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8').trim());
    const files = hardLimit('Max open files');
    const processCount = hardLimit('Max processes');
    const nproc = processCount === 'unlimited' ? pidMax : Math.min(Number(processCount), pidMax);
    const nofile = files === 'unlimited' ? 1048576 : Number(files);
    containers.push(`default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]`);
    needs.push(`no CAP_SYS_RESOURCE: containers get this process's limits (nofile ${nofile}, nproc ${nproc})`);
  }

  // A proxy that re-signs HTTPS: npm in the build (its `npm ci`) must trust the host's CA list. npm reads the
  // global config $prefix/etc/npmrc, /usr/local/etc/npmrc in the node image, so a FOLDER with that npmrc and the
  // list is mounted there for the RUN steps only. Debian's image already has /usr/local/etc, so the mount point
  // adds nothing to a layer (a file mounted alone leaves an empty file in it); `podman build --env` would write
  // the setting into the image, and buildah does not apply containers.conf's `env` to RUN steps.
  if (!(await registryTrustedByNode())) {
    const bundle = [process.env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt'].find((file) => file !== undefined && file !== '' && existsSync(file));
    if (bundle === undefined) throw new Error("HTTPS to the npm registry is re-signed on the way and no CA list was found (NODE_EXTRA_CA_CERTS, /etc/ssl/certs/ca-certificates.crt)");
    const npmEtc = join(dir, 'npm-etc');
    mkdirSync(npmEtc);
    copyFileSync(bundle, join(npmEtc, 'host-ca.crt'));
    writeFileSync(join(npmEtc, 'npmrc'), 'cafile=/usr/local/etc/host-ca.crt\n');
    buildArgs.push('--volume', `${npmEtc}:/usr/local/etc:ro`);
    needs.push("HTTPS re-signed on the way: the host's CA list given to npm in the build");
  }

  const env = childEnv();
  if (engine.length > 0 || containers.length > 0) {
    const conf = join(dir, 'containers.conf');
    writeFileSync(conf, `[containers]\n${containers.join('\n')}\n\n[engine]\n${engine.join('\n')}\n`);
    env.CONTAINERS_CONF = conf;
  }
  return { command, env, buildArgs, needs, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs podman to its end. */
export function podman(engine: Podman, args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  return processes.run(engine.command, args, { env: { ...engine.env, ...extraEnv } });
}

/** Runs podman and returns its stdout; throws with its stderr (and the arguments) when it fails. */
export async function podmanOk(engine: Podman, args: string[], extraEnv: Record<string, string> = {}): Promise<string> {
  const run = await podman(engine, args, extraEnv);
  if (run.code !== 0) throw new Error(`podman ${args.join(' ')} exited ${run.code ?? run.signal}: ${run.stderr.trim()}`);
  return run.stdout;
}

async function ok(command: string, args: string[], cwd?: string): Promise<string> {
  const run = await processes.run(command, args, cwd === undefined ? {} : { cwd });
  if (run.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.code ?? run.signal}: ${run.stderr.trim().slice(-2000)}`);
  return run.stdout;
}

/** The official image's entrypoint: `node` runs the arguments when the first is a flag or not a command. */
const DOCKER_ENTRYPOINT = `#!/bin/sh
set -e
if [ "\${1#-}" != "\${1}" ] || [ -z "$(command -v "\${1}")" ] || { [ -f "\${1}" ] && ! [ -x "\${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
`;

/** The npm that Node's release bundles: the newest "upgrade npm to" of the release's changelog, which the npm registry's package ships. */
function bundledNpm(node: string): string {
  const changelog = readFileSync(join(dirname(node), '..', 'CHANGELOG.md'), 'utf8');
  const version = /upgrade npm to (\d+\.\d+\.\d+)/i.exec(changelog)?.[1];
  if (version === undefined) throw new Error(`cannot tell which npm Node's changelog (${changelog.length} characters) bundles`);
  return version;
}

/**
 * The stand-in for the Dockerfile's base, tagged as both names its FROM
 * resolves to, unless podman's storage holds it already: built once per
 * machine (about two minutes), then reused.
 * Returns how it was found: 'kept' or 'built'.
 */
export async function ensureBaseImage(engine: Podman): Promise<'kept' | 'built'> {
  const { tag, nodeVersion } = baseImage();
  const names = [`docker.io/library/${tag}`, `localhost/${tag}`];
  if ((await podman(engine, ['image', 'exists', names[0] as string])).code === 0) return 'kept';
  for (const tool of ['debootstrap', 'chroot']) {
    if (findCommand(tool, ['/usr/sbin']) === undefined) throw new Error(`the base image's stand-in needs ${tool} (Debian: apt-get install debootstrap)`);
  }
  if (process.getuid?.() !== 0) throw new Error("the base image's stand-in is built as root (debootstrap, chroot), as rootful podman runs");
  const work = mkdtempSync(join(tmpdir(), 'animal-store-base-'));
  try {
    const rootfs = join(work, 'rootfs');
    const [node] = await Promise.all([nodeBinary(nodeVersion), ok(findCommand('debootstrap', ['/usr/sbin']) as string, ['--variant=minbase', 'bookworm', rootfs, 'http://deb.debian.org/debian'])]);
    const npmVersion = bundledNpm(node);
    // The official image's layout: node and npm under /usr/local, npm and npx linked into its bin.
    copyFileSync(node, join(rootfs, 'usr/local/bin/node'));
    chmodSync(join(rootfs, 'usr/local/bin/node'), 0o755);
    const npmTarball = (await ok('npm', ['pack', '--silent', `npm@${npmVersion}`, '--pack-destination', work], work)).trim().split('\n').pop() as string;
    const npmDir = join(rootfs, 'usr/local/lib/node_modules/npm');
    mkdirSync(npmDir, { recursive: true });
    await ok('tar', ['-xzf', join(work, npmTarball), '-C', npmDir, '--strip-components=1']);
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/local/bin/npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(rootfs, 'usr/local/bin/npx'));
    writeFileSync(join(rootfs, 'usr/local/bin/docker-entrypoint.sh'), DOCKER_ENTRYPOINT, { mode: 0o755 });
    // The official image's user: node, uid and gid 1000, home /home/node.
    await ok('chroot', [rootfs, 'groupadd', '--gid', '1000', 'node']);
    await ok('chroot', [rootfs, 'useradd', '--uid', '1000', '--gid', 'node', '--shell', '/bin/bash', '--create-home', 'node']);
    // What Debian's slim image leaves out: downloaded packages, package lists, documentation.
    await ok('sh', ['-c', 'rm -rf var/cache/apt/archives/*.deb var/lib/apt/lists/* usr/share/doc/* usr/share/man/* usr/share/info/*'], rootfs);
    const tarball = join(work, 'rootfs.tar');
    await ok('tar', ['-C', rootfs, '-cf', tarball, '.']);
    // Imported under a name of its own, then tagged: a run beside this one never sees half an image under the base's name.
    const temporary = `localhost/animal-store-base-import:${process.pid}`;
    const changes = [`ENV NODE_VERSION=${nodeVersion}`, 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'ENTRYPOINT ["docker-entrypoint.sh"]', 'CMD ["node"]'];
    await podmanOk(engine, ['import', ...changes.flatMap((change) => ['--change', change]), tarball, temporary]);
    await podmanOk(engine, ['tag', temporary, ...names]);
    await podmanOk(engine, ['untag', temporary, temporary]);
    return 'built';
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Builds the Dockerfile, unchanged, as `tag`. `--format docker`: the OCI
 * format has no HEALTHCHECK, and would drop it. The image built last stays
 * in storage, so the next build reuses its unchanged layers (the `npm ci`
 * ones above all); the one it replaces is removed.
 */
export async function buildImage(engine: Podman, tag: string): Promise<void> {
  const before = await podman(engine, ['image', 'inspect', '--format', '{{.Id}}', tag]);
  await podmanOk(engine, ['build', '--format', 'docker', '--pull=never', '--layers', ...engine.buildArgs, '--tag', tag, '--file', join(ROOT, 'Dockerfile'), ROOT]);
  const after = await podmanOk(engine, ['image', 'inspect', '--format', '{{.Id}}', tag]);
  if (before.code === 0 && before.stdout.trim() !== after.trim()) await podman(engine, ['rmi', before.stdout.trim()]);
}
