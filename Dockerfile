# Animal Store mock server image.
#   docker build -t animal-store-mock .
#   docker run --rm -p 4010:4010 animal-store-mock
# Arguments after the image name replace CMD, e.g.
#   docker run --rm -p 4010:4010 animal-store-mock --seed 7
#   docker run --rm -p 4010:4010 animal-store-mock --log-format json --scenario flaky
# Checked without an engine by test/docker/verify-dockerfile.sh; built
# unchanged and run with podman by test/docker/image.podman.test.ts.

# Node 22.23.3, the newest 22 release on 2026-11-26, pinned to its exact
# tag so every build starts from the same Node: Node 20 left LTS support
# in April 2026, 22 is LTS until April 2027 and meets engines ">=20.19".
# Not pinned by digest: no registry could be reached to read the digest,
# and a wrong one would break every build. To move to a newer Node, change
# both FROM lines together (test/docker/verify-dockerfile.sh checks they
# agree). slim: Debian without compilers or curl; no dependency needs them.

# ---- build: dev dependencies, TypeScript -> dist/ ----
FROM node:22.23.3-slim AS build
WORKDIR /app

# Manifests first, so the install layer is reused until they change.
COPY package.json package-lock.json ./
# --ignore-scripts: no script is run unreviewed. The one install
# script in package-lock.json is @scarf/scarf's (install analytics,
# under the swagger-ui-dist dev dependency): never wanted here.
RUN npm ci --ignore-scripts

# tsconfig.build.json (extending tsconfig.json) emits src and scripts, no tests.
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The build script that precompiles the validators (scripts/build-validators.ts).
COPY scripts ./scripts
# The build precompiles the validators of the shipped document, catalogue,
# scenarios and profiles (dist/generated/validators.cjs), so it reads them too.
COPY openapi ./openapi
COPY fixtures ./fixtures
COPY scenarios ./scenarios
COPY profiles ./profiles
# Then what package.json's `files` leaves out of the package: tests, suites, source maps.
RUN npm run build \
 && find dist \( -name '*.test.js' -o -name '*.suite.js' -o -name '*.map' \) -delete

# ---- runtime: production dependencies and built output only ----
FROM node:22.23.3-slim AS runtime
WORKDIR /app

COPY package.json package-lock.json ./
# --ignore-scripts: as in the build stage.
# npm's folder (its cache and its logs) goes in the same layer, so it never ships.
RUN npm ci --omit=dev --ignore-scripts \
 && rm -rf "$(npm config get cache)"

# package.json also marks /app as the root where the mock looks for
# openapi/, fixtures/, scenarios/, profiles/ and console/ (src/shared/package-root.ts).
COPY openapi ./openapi
COPY fixtures ./fixtures
COPY scenarios ./scenarios
COPY profiles ./profiles
COPY console ./console
# What package.json's `files` ships of dist/: not the build's own scripts.
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/generated ./dist/generated
COPY --from=build /app/dist/docs-renderer ./dist/docs-renderer

# Open Containers image annotations (opencontainers/image-spec,
# annotations.md): what registries and scanners show for the image.
LABEL org.opencontainers.image.title="animal-store-mock" \
      org.opencontainers.image.description="High-fidelity mock server and contract-test harness for the Animal Store API" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="0.1.0" \
      org.opencontainers.image.base.name="docker.io/library/node:22.23.3-slim"

# Files stay root-owned: the mock only reads them, so the node user
# (uid 1000 in the official image) cannot change its own code.
USER node

# 0.0.0.0: the default 127.0.0.1 is unreachable from outside.
# So anyone who reaches the port reaches the admin API (/__mock) too:
# set MOCK_ADMIN_KEY (docker run -e MOCK_ADMIN_KEY=...) to require
# `Authorization: Bearer <key>` there (without it the mock warns at
# start-up). Set it as the variable rather than --admin-key: the
# HEALTHCHECK reads the variable to send the key.
# NODE_ENV=production: what libraries read to drop development-only
# work; the mock itself does not read it.
ENV HOST=0.0.0.0 PORT=4010 NODE_ENV=production
EXPOSE 4010

# Slim images have no curl: node's own fetch does the GET, in a file of
# its own (src/mock/health-probe.ts). Exit 1 (unhealthy) on any status
# but 200, on a network error or after 4 s. PORT is read so that
# `-e PORT=...` keeps the check right, and MOCK_ADMIN_KEY, when set, is
# sent (health needs the admin key then).
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "dist/src/mock/health-probe.js"]

# Exec form, no shell: node is PID 1 and gets SIGTERM itself. PID 1
# has no default signal actions, but bin.ts handles SIGINT and
# SIGTERM (drain for the grace, 8 s by default, then exit: within
# 9 s, under docker stop's 10 s).
# node reaps no zombies; the mock starts no child processes, so no
# init is needed (add `docker run --init` if that changes).
ENTRYPOINT ["node", "dist/src/mock/bin.js"]
# JSON logs are also the default when stdout is not a terminal; set
# here so `docker run -t` logs JSON too.
CMD ["--log-format", "json"]
