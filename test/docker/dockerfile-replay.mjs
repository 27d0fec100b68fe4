// Helper for verify-dockerfile.sh (see there): reads the Dockerfile and
// .dockerignore and replays the build with no Docker engine. Plain JS,
// so it needs no build and stays out of tsc and vitest.
//
//   node dockerfile-replay.mjs ignore-filter .dockerignore  < paths\0 > kept\0
//   node dockerfile-replay.mjs check Dockerfile .dockerignore
//   node dockerfile-replay.mjs replay Dockerfile CONTEXT WORK
//   node dockerfile-replay.mjs healthcheck WORK/image.json PORT [K=V...]
//   node dockerfile-replay.mjs run WORK/image.json LOG PIDFILE [K=V...] [-- ARG...]
//
// Only the instructions this project uses are replayed; any other one
// fails loudly rather than being skipped.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// uid/gid of the `node` user in the official node images.
const KNOWN_USERS = { root: [0, 0], node: [1000, 1000] };

const [command, ...args] = process.argv.slice(2);
const commands = { 'ignore-filter': ignoreFilter, check, replay, healthcheck, run };
if (!commands[command]) {
  console.error(`usage: dockerfile-replay.mjs ${Object.keys(commands).join('|')} ...`);
  process.exit(2);
}
try {
  process.exitCode = await commands[command](...args);
} catch (error) {
  console.error(`dockerfile-replay ${command}: ${error.message}`);
  process.exitCode = 1;
}

// ---------------------------------------------------------------- .dockerignore

/** Patterns as BuildKit reads them (moby/patternmatcher). */
function readIgnore(file) {
  const patterns = [];
  for (let line of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
    if (line.startsWith('#')) continue;
    line = line.trim();
    if (line === '') continue;
    const exclusion = line.startsWith('!');
    if (exclusion) line = line.slice(1).trim();
    if (line === '') continue;
    line = path.posix.normalize(line).replace(/\/+$/, '');
    if (line.length > 1 && line.startsWith('/')) line = line.slice(1);
    patterns.push({ exclusion, regex: globToRegex(line), text: line });
  }
  return patterns;
}

/** patternmatcher's translation: `*` and `?` stop at `/`, `**` spans them. */
function globToRegex(glob) {
  let re = '^';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') i++;
        re += i + 1 >= glob.length ? '.*' : '(.*/)?';
      } else {
        re += '[^/]*';
      }
    } else if (ch === '?') {
      re += '[^/]';
    } else if (ch === '\\' && i + 1 < glob.length) {
      re += '\\' + glob[++i];
    } else if (ch === '[' || ch === ']') {
      re += ch;
    } else {
      re += ch.replace(/[.+^${}()|]/g, '\\$&');
    }
  }
  return new RegExp(re + '$');
}

/** True when the path is left out of the context: the last matching
 * pattern wins, and a pattern matching a parent folder matches too. */
function ignored(patterns, file) {
  const parts = file.split('/');
  let out = false;
  for (const p of patterns) {
    let hit = p.regex.test(file);
    for (let i = 1; !hit && i < parts.length; i++) hit = p.regex.test(parts.slice(0, i).join('/'));
    if (hit) out = !p.exclusion;
  }
  return out;
}

async function ignoreFilter(ignoreFile) {
  const patterns = fs.existsSync(ignoreFile) ? readIgnore(ignoreFile) : [];
  const input = fs.readFileSync(0, 'utf8');
  const kept = input.split('\0').filter((f) => f !== '' && !ignored(patterns, f));
  process.stdout.write(kept.map((f) => f + '\0').join(''));
  return 0;
}

// ------------------------------------------------------------------ Dockerfile

/** Instructions with continuation lines joined and comments dropped. */
function parseDockerfile(file) {
  const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
  let escape = '\\';
  let i = 0;
  for (; i < lines.length; i++) {
    const m = /^#\s*([a-z]+)\s*=\s*(\S+)\s*$/i.exec(lines[i]);
    if (!m) break;
    if (m[1].toLowerCase() === 'escape') escape = m[2];
  }
  const out = [];
  let buf = null;
  let start = 0;
  for (; i < lines.length; i++) {
    const line = lines[i];
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    if (buf === null) {
      buf = '';
      start = i + 1;
    }
    const r = line.replace(/\s+$/, '');
    if (r.endsWith(escape)) {
      buf += r.slice(0, -escape.length);
      continue;
    }
    buf += line;
    out.push(toInstruction(buf.trim(), start));
    buf = null;
  }
  if (buf !== null) out.push(toInstruction(buf.trim(), start));
  return out;
}

function toInstruction(text, line) {
  const m = /^(\S+)\s*([\s\S]*)$/.exec(text);
  let rest = m[2];
  const flags = {};
  const flagged = ['FROM', 'COPY', 'ADD', 'RUN', 'HEALTHCHECK'];
  const op = m[1].toUpperCase();
  if (flagged.includes(op)) {
    let f;
    while ((f = /^--([a-z-]+)(?:=(\S*))?\s*/.exec(rest))) {
      flags[f[1]] = f[2] ?? 'true';
      rest = rest.slice(f[0].length);
    }
  }
  return { op, rest: rest.trim(), flags, line, text };
}

/** ["a", "b"] exec form, or undefined for shell form. */
function execForm(rest) {
  if (!rest.startsWith('[')) return undefined;
  try {
    const v = JSON.parse(rest);
    return Array.isArray(v) && v.every((s) => typeof s === 'string') ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Shell-like words: quotes and backslashes, no expansion. */
function words(s) {
  const out = [];
  let cur = null;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (/\s/.test(ch)) {
      if (cur !== null) out.push(cur);
      cur = null;
    } else if (ch === '"' || ch === "'") {
      const end = s.indexOf(ch, i + 1);
      if (end < 0) throw new Error(`unclosed quote in: ${s}`);
      cur = (cur ?? '') + s.slice(i + 1, end);
      i = end;
    } else if (ch === '\\' && i + 1 < s.length) {
      cur = (cur ?? '') + s[++i];
    } else {
      cur = (cur ?? '') + ch;
    }
  }
  if (cur !== null) out.push(cur);
  return out;
}

function expand(s, vars) {
  return s.replace(/\$\{([A-Za-z_]\w*)(?::-([^}]*))?\}|\$([A-Za-z_]\w*)/g, (_, a, def, b) => {
    const v = vars[a ?? b];
    return v !== undefined && v !== '' ? v : def ?? '';
  });
}

function parseEnv(rest, vars) {
  const w = words(rest);
  if (w.length > 0 && !w[0].includes('=')) return { [w[0]]: expand(rest.slice(rest.indexOf(w[0]) + w[0].length).trim(), vars) };
  const out = {};
  for (const kv of w) {
    const eq = kv.indexOf('=');
    if (eq < 1) throw new Error(`bad ENV pair: ${kv}`);
    out[kv.slice(0, eq)] = expand(kv.slice(eq + 1), { ...vars, ...out });
  }
  return out;
}

function durationMs(s, fallback) {
  if (s === undefined) return fallback;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(s);
  if (!m) throw new Error(`bad duration ${s}`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60000, h: 3600000 }[m[2]];
}

/** Stages with what each instruction sets (no side effects). */
function stagesOf(instructions) {
  const args = {};
  const stages = [];
  for (const ins of instructions) {
    if (ins.op === 'ARG' && stages.length === 0) {
      const [k, v] = ins.rest.split('=');
      args[k] = v;
      continue;
    }
    if (ins.op === 'FROM') {
      const w = words(expand(ins.rest, args));
      const name = w[1]?.toUpperCase() === 'AS' ? w[2] : String(stages.length);
      stages.push({ name, base: w[0], instructions: [], env: {}, exposes: [], user: 'root', workdir: '/' });
      continue;
    }
    const st = stages.at(-1);
    if (!st) throw new Error(`line ${ins.line}: ${ins.op} before FROM`);
    st.instructions.push(ins);
    if (ins.op === 'ENV') Object.assign(st.env, parseEnv(ins.rest, { ...args, ...st.env }));
    if (ins.op === 'EXPOSE') st.exposes.push(...words(ins.rest));
    if (ins.op === 'USER') st.user = ins.rest;
    if (ins.op === 'WORKDIR') st.workdir = path.posix.resolve(st.workdir, expand(ins.rest, st.env));
    if (ins.op === 'ENTRYPOINT') st.entrypoint = execForm(ins.rest) ?? ['/bin/sh', '-c', ins.rest];
    if (ins.op === 'CMD') st.cmd = execForm(ins.rest) ?? ['/bin/sh', '-c', ins.rest];
    if (ins.op === 'ENTRYPOINT' || ins.op === 'CMD') st[`${ins.op.toLowerCase()}Exec`] = execForm(ins.rest) !== undefined;
    if (ins.op === 'HEALTHCHECK') {
      const m = /^CMD\s+([\s\S]*)$/i.exec(ins.rest);
      if (/^NONE$/i.test(ins.rest)) st.healthcheck = null;
      else if (!m) throw new Error(`line ${ins.line}: HEALTHCHECK without CMD`);
      else {
        const exec = execForm(m[1]);
        st.healthcheck = {
          argv: exec ?? ['/bin/sh', '-c', m[1]],
          exec: exec !== undefined,
          timeoutMs: durationMs(ins.flags.timeout, 30000),
          flags: ins.flags,
        };
      }
    }
  }
  return stages;
}

// ---------------------------------------------------------------------- check

async function check(dockerfile, ignoreFile) {
  const results = [];
  const ok = (pass, what) => results.push({ pass: Boolean(pass), what });
  let stages;
  try {
    stages = stagesOf(parseDockerfile(dockerfile));
  } catch (e) {
    console.log(`FAIL Dockerfile does not parse: ${e.message}`);
    return 1;
  }
  const build = stages[0];
  const rt = stages.at(-1);
  const runs = (st) => st.instructions.filter((i) => i.op === 'RUN').map((i) => i.rest);
  const copies = (st) => st.instructions.filter((i) => i.op === 'COPY');

  ok(stages.length >= 2, `multi-stage (${stages.length} stages: ${stages.map((s) => s.name).join(', ')})`);
  const versions = stages.map((s) => /^node:(\d+\.\d+\.\d+)(?:-[a-z]+)?-slim(?:@sha256:[0-9a-f]{64})?$/.exec(s.base)?.[1]);
  ok(versions.every(Boolean), `every FROM is node:<major.minor.patch>-slim, an exact release (${stages.map((s) => s.base).join(', ')})`);
  ok(new Set(versions).size === 1, 'build and runtime share one Node release');
  ok(runs(build).some((r) => /\bnpm ci\b/.test(r)), 'build stage runs npm ci');
  ok(runs(build).some((r) => /\bnpm run build\b/.test(r)), 'build stage runs npm run build');
  ok(runs(rt).some((r) => /\bnpm ci\b/.test(r) && /--omit=dev\b/.test(r) && /--ignore-scripts\b/.test(r)),
    'runtime stage runs npm ci --omit=dev --ignore-scripts');
  const rtSources = copies(rt).flatMap((c) => words(c.rest).slice(0, -1).map((s) => ({ from: c.flags.from, src: s })));
  const has = (re) => rtSources.some((s) => re.test(s.src));
  const manifestFiles = JSON.parse(fs.readFileSync(path.join(path.dirname(dockerfile), 'package.json'), 'utf8')).files ?? [];
  const shippedDist = manifestFiles.filter((f) => /^dist\/[^!*]+$/.test(f));
  ok(shippedDist.length > 0 && shippedDist.every((f) => rtSources.some((s) => s.from === 'build' && s.src.replace(/^\/app\//, '').replace(/\/$/, '') === f)),
    `runtime COPYs from the build exactly what package.json ships of dist/ (${shippedDist.join(', ')})`);
  ok(!rtSources.some((s) => /(^|\/)dist\/?$|dist\/scripts/.test(s.src)), 'runtime COPYs no dist/scripts (the build\'s own scripts)');
  ok(has(/^openapi\/?$/) && has(/^fixtures\/?$/) && has(/^scenarios\/?$/) && has(/^profiles\/?$/) && has(/^package\.json$/),
    'runtime COPYs openapi, fixtures, scenarios, profiles and package.json');
  ok(runs(rt).some((r) => /npm ci\b/.test(r) && /rm -rf "\$\(npm config get cache\)"/.test(r)), 'runtime removes npm\'s folder (cache and logs) in the npm ci layer');
  // The sources are src/ at the top (dist/src is the build's output).
  ok(!rtSources.some((s) => /(^|\/)(node_modules|test|bench)(\/|$)|^(\.\/|\/app\/)?src(\/|$)|^\.$|tsconfig/.test(s.src)),
    'runtime COPYs no sources, tests or node_modules');
  ok(rt.user && !/^(root|0)(:|$)/.test(rt.user), `runtime runs as a non-root user (USER ${rt.user})`);
  ok(rt.env.NODE_ENV === 'production', `runtime ENV NODE_ENV=production (got ${rt.env.NODE_ENV})`);
  const labels = fs.readFileSync(dockerfile, 'utf8').replace(/\\\n/g, ' ');
  const label = (key) => new RegExp(`org\\.opencontainers\\.image\\.${key}="([^"]*)"`).exec(labels)?.[1];
  const manifest = JSON.parse(fs.readFileSync(path.join(path.dirname(dockerfile), 'package.json'), 'utf8'));
  ok(label('version') === manifest.version && label('licenses') === manifest.license && label('title') === manifest.name,
    `OCI labels title, version and licenses as package.json says (${label('title')} ${label('version')} ${label('licenses')})`);
  ok(label('base.name')?.endsWith(`node:${versions[0]}-slim`), `OCI label base.name names the FROM image (${label('base.name')})`);
  ok(rt.env.HOST === '0.0.0.0' && rt.env.PORT === '4010', `runtime ENV HOST=0.0.0.0 PORT=4010 (got ${rt.env.HOST}, ${rt.env.PORT})`);
  ok(rt.exposes.includes('4010') || rt.exposes.includes('4010/tcp'), `EXPOSE 4010 (got ${rt.exposes.join(' ') || 'none'})`);
  const hc = rt.healthcheck;
  ok(hc && hc.argv[hc.exec ? 0 : 2]?.startsWith('node'), 'HEALTHCHECK runs node');
  ok(hc && !/\b(curl|wget)\b/.test(hc.argv.join(' ')), 'HEALTHCHECK needs no curl or wget');
  // What it asks and sends is run below (verify-dockerfile.sh); here, that it can be run as written everywhere.
  ok(hc && hc.exec && hc.argv.every((arg) => !/\s/.test(arg)),
    'HEALTHCHECK in exec form, no argument holding a space (Podman\'s Docker-compatible API splits one)');
  const comments = fs.readFileSync(dockerfile, 'utf8').split('\n').filter((line) => line.startsWith('#')).join('\n');
  ok(/MOCK_ADMIN_KEY/.test(comments), 'the Dockerfile documents MOCK_ADMIN_KEY');
  const argv = [...(rt.entrypoint ?? []), ...(rt.cmd ?? [])];
  ok(rt.entrypointExec !== false && rt.cmdExec !== false, 'ENTRYPOINT/CMD in exec form (node is PID 1, gets signals)');
  ok(argv[0] === 'node' && argv[1] === 'dist/src/mock/bin.js', `starts node dist/src/mock/bin.js (got ${argv.slice(0, 2).join(' ')})`);
  ok(argv.join(' ').includes('--log-format json'), 'default command logs JSON');

  const patterns = fs.existsSync(ignoreFile) ? readIgnore(ignoreFile) : [];
  const out = ['node_modules/x/index.js', 'dist/src/mock/bin.js', '.git/HEAD', '.env', 'coverage/x', 'x.log'];
  const keep = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'src/mock/bin.ts', 'scripts/build-validators.ts', 'openapi/animal-store.yaml', 'fixtures/pets.json', 'scenarios/default.yaml', 'scenarios/scenario.schema.json', 'profiles/default.yaml', 'profiles/profile.schema.json'];
  const leaks = out.filter((f) => !ignored(patterns, f));
  const lost = keep.filter((f) => ignored(patterns, f));
  ok(leaks.length === 0, `.dockerignore keeps out ${out.join(', ')}${leaks.length ? ` (leaks: ${leaks.join(', ')})` : ''}`);
  ok(lost.length === 0, `.dockerignore lets in ${keep.join(', ')}${lost.length ? ` (drops: ${lost.join(', ')})` : ''}`);

  for (const r of results) console.log(`${r.pass ? 'ok  ' : 'FAIL'} ${r.what}`);
  return results.every((r) => r.pass) ? 0 : 1;
}

// --------------------------------------------------------------------- replay

function inside(root, p) {
  const full = path.resolve(root, '.' + path.posix.resolve('/', p));
  if (full !== root && !full.startsWith(root + path.sep)) throw new Error(`${p} leaves ${root}`);
  return full;
}

function chownTree(p, [uid, gid]) {
  fs.lchownSync(p, uid, gid);
  if (fs.lstatSync(p).isDirectory()) for (const e of fs.readdirSync(p)) chownTree(path.join(p, e), [uid, gid]);
}

function userIds(user) {
  const name = user.split(':')[0];
  if (/^\d+$/.test(name)) return [Number(name), Number(user.split(':')[1] ?? name)];
  const ids = KNOWN_USERS[name];
  if (!ids) throw new Error(`unknown user ${user}: add it to KNOWN_USERS`);
  return ids;
}

/** Expands * and ? in the last path segment, as COPY does. */
function globSources(base, src) {
  const full = inside(base, src);
  if (!/[*?[]/.test(path.basename(full))) {
    if (!fs.existsSync(full)) throw new Error(`COPY source ${src} not found`);
    return [full];
  }
  const re = globToRegex(path.basename(full));
  const hits = fs.readdirSync(path.dirname(full)).filter((e) => re.test(e)).map((e) => path.join(path.dirname(full), e));
  if (hits.length === 0) throw new Error(`COPY source ${src} matches nothing`);
  return hits;
}

async function replay(dockerfile, context, work) {
  context = path.resolve(context);
  work = path.resolve(work);
  const stages = stagesOf(parseDockerfile(dockerfile));
  const roots = {};
  const total = stages.reduce((n, s) => n + 1 + s.instructions.length, 0);
  let step = 0;
  const say = (st, text) => console.log(`#${++step}/${total} [${st.name}] ${text}`);
  const isRoot = process.getuid?.() === 0;

  for (const st of stages) {
    const root = path.join(work, 'stages', st.name, 'rootfs');
    fs.rmSync(root, { recursive: true, force: true });
    fs.mkdirSync(root, { recursive: true });
    roots[st.name] = root;
    say(st, `FROM ${st.base} (not pulled: an empty root, host tools stand in for the image's)`);
    if (roots[st.base]) throw new Error(`FROM an earlier stage is not replayed`);
    let workdir = '/';
    const env = {};
    for (const ins of st.instructions) {
      say(st, ins.text.replace(/\s+/g, ' '));
      switch (ins.op) {
        case 'WORKDIR':
          workdir = path.posix.resolve(workdir, expand(ins.rest, env));
          fs.mkdirSync(inside(root, workdir), { recursive: true });
          break;
        case 'ENV':
          Object.assign(env, parseEnv(ins.rest, env));
          break;
        case 'USER':
        case 'EXPOSE':
        case 'HEALTHCHECK':
        case 'ENTRYPOINT':
        case 'CMD':
        case 'LABEL':
        case 'STOPSIGNAL':
          break; // metadata: stagesOf() has it
        case 'COPY': {
          const extra = Object.keys(ins.flags).filter((f) => !['from', 'chown', 'link'].includes(f));
          if (extra.length) throw new Error(`line ${ins.line}: COPY --${extra[0]} is not replayed`);
          const w = execForm(ins.rest) ?? words(expand(ins.rest, env));
          const dest = path.posix.resolve(workdir, w.at(-1));
          const srcRoot = ins.flags.from ? roots[ins.flags.from] : context;
          if (!srcRoot) throw new Error(`line ${ins.line}: no stage named ${ins.flags.from}`);
          const sources = w.slice(0, -1).flatMap((s) => globSources(srcRoot, s));
          const intoDir = w.at(-1).endsWith('/') || sources.length > 1;
          for (const src of sources) {
            const isDir = fs.statSync(src).isDirectory();
            const target = inside(root, isDir || !intoDir ? dest : path.posix.join(dest, path.basename(src)));
            fs.mkdirSync(isDir ? target : path.dirname(target), { recursive: true });
            // A folder's contents are copied, not the folder itself.
            fs.cpSync(src, target, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
            if (ins.flags.chown && isRoot) chownTree(target, userIds(ins.flags.chown));
          }
          break;
        }
        case 'RUN': {
          if (Object.keys(ins.flags).length) throw new Error(`line ${ins.line}: RUN flags are not replayed`);
          const argv = execForm(ins.rest) ?? ['/bin/sh', '-c', ins.rest];
          const r = spawnSync(argv[0], argv.slice(1), {
            cwd: inside(root, workdir),
            // npm's cache where root's would be in the image, so each
            // stage starts cold and leftovers show in the stage's root.
            env: { ...process.env, npm_config_cache: inside(root, '/root/.npm'), ...env },
            stdio: 'inherit',
          });
          if (r.status !== 0) throw new Error(`line ${ins.line}: RUN exited ${r.status ?? r.signal}`);
          break;
        }
        default:
          throw new Error(`line ${ins.line}: ${ins.op} is not replayed by this script`);
      }
    }
  }
  const rt = stages.at(-1);
  const image = {
    stage: rt.name,
    base: rt.base,
    rootfs: roots[rt.name],
    workdir: rt.workdir,
    appDir: inside(roots[rt.name], rt.workdir),
    env: rt.env,
    user: rt.user,
    ids: userIds(rt.user),
    exposes: rt.exposes,
    healthcheck: rt.healthcheck,
    entrypoint: rt.entrypoint ?? [],
    cmd: rt.cmd ?? [],
    stages: Object.fromEntries(stages.map((s) => [s.name, { rootfs: roots[s.name], appDir: inside(roots[s.name], s.workdir) }])),
  };
  fs.writeFileSync(path.join(work, 'image.json'), JSON.stringify(image, null, 2));
  return 0;
}

// ------------------------------------------------------- running the "image"

/** The process as the container would get it: image ENV over a bare
 * environment, the image's user when we can switch to it. */
/** `K=V` arguments as an environment (as `docker run -e K=V`). */
function envOf(pairs) {
  return Object.fromEntries(pairs.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
}

function containerSpawnOptions(image, extraEnv) {
  const env = {
    PATH: process.env.PATH,
    HOME: path.join(path.dirname(image.rootfs), 'home'),
    ...image.env,
    ...extraEnv,
  };
  fs.mkdirSync(env.HOME, { recursive: true });
  const opts = { cwd: image.appDir, env };
  if (process.getuid?.() === 0) {
    [opts.uid, opts.gid] = image.ids;
    fs.chownSync(env.HOME, opts.uid, opts.gid);
  }
  return opts;
}

async function healthcheck(imageFile, port, ...envPairs) {
  const image = JSON.parse(fs.readFileSync(imageFile, 'utf8'));
  const hc = image.healthcheck;
  if (!hc) {
    console.error('no HEALTHCHECK');
    return 1;
  }
  // PORT is how the container is told its port; a literal image port
  // in the command is swapped too, should the check not read PORT.
  const from = `127.0.0.1:${image.env.PORT ?? '4010'}`;
  const argv = hc.argv.map((a) => a.split(from).join(`127.0.0.1:${port}`));
  const r = spawnSync(argv[0], argv.slice(1), {
    ...containerSpawnOptions(image, { ...envOf(envPairs), PORT: String(port) }),
    timeout: hc.timeoutMs,
    stdio: 'inherit',
  });
  if (r.error && r.error.code !== 'ETIMEDOUT') throw r.error;
  if (r.signal) {
    console.error(`HEALTHCHECK timed out after ${hc.timeoutMs} ms`);
    return 124;
  }
  return r.status;
}

/** Runs the command as `docker run` would, writes its pid to PIDFILE
 * and exits with its exit code (128 + signal number if killed). */
async function run(imageFile, log, pidFile, ...rest) {
  const image = JSON.parse(fs.readFileSync(imageFile, 'utf8'));
  const sep = rest.indexOf('--');
  const envPairs = sep < 0 ? rest : rest.slice(0, sep);
  const runArgs = sep < 0 ? undefined : rest.slice(sep + 1);
  const extraEnv = envOf(envPairs);
  // `docker run IMAGE ARGS...`: ARGS replace CMD, ENTRYPOINT stays.
  const argv = [...image.entrypoint, ...(runArgs ?? image.cmd)];
  const fd = fs.openSync(log, 'a');
  const child = spawn(argv[0], argv.slice(1), { ...containerSpawnOptions(image, extraEnv), stdio: ['ignore', fd, fd] });
  const uid = process.getuid?.() === 0 ? image.ids[0] : process.getuid?.();
  console.log(`started pid ${child.pid} as uid ${uid}: ${argv.join(' ')}`);
  fs.writeFileSync(pidFile, String(child.pid));
  const [code, signal] = await new Promise((resolve) => child.on('exit', (c, s) => resolve([c, s])));
  return code ?? 128 + (os.constants.signals[signal] ?? 0);
}
