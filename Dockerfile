# Verification receipt service: production image. How to build and run it: docs/docker.md.
#
#   docker build -t receipts .
#   docker run -d --name receipts -p 3000:3000 -v receipts-data:/data receipts
#
# Base image (both stages): the official Node.js image, slim variant, pinned to the major of the
# current Active LTS line (24) and to a Debian release (bookworm). Pinning the major rather than
# "lts"/"latest" means a rebuild picks up Node patch releases and Debian security fixes but never
# a new Node major or Debian release by surprise. Bookworm because the entrypoint below needs
# flock(1), which its Essential util-linux package ships (checked at build time). For
# reproducible builds also pin the digest: node:24-bookworm-slim@sha256:<digest>.
#
# Only standard Dockerfile syntax (no BuildKit-only features), so any builder can build it.

# ---- build: dev dependencies + TypeScript compile ------------------------------------------
FROM node:24-bookworm-slim AS build
WORKDIR /app
# Dependencies first: this layer stays cached until the lock file changes. --ignore-scripts
# because the package's own "prepare" script runs the build, which needs the sources copied
# below; no dependency needs an install script for the TypeScript compile.
# The verifier package (packages/verify) is an npm workspace: its package.json is part of the lock.
COPY package.json package-lock.json ./
COPY packages/verify/package.json ./packages/verify/
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY packages/verify/tsconfig.build.json ./packages/verify/
COPY packages/verify/src ./packages/verify/src
COPY scripts ./scripts
COPY src ./src
RUN npm run build

# ---- runtime: production dependencies + compiled output, non-root -----------------------------
FROM node:24-bookworm-slim AS runtime
# ENV_FILE: where the /probot setup writes the GitHub App's credentials, on the data volume the
# service's user owns (the image's /app is root's, so ./.env could not be written there)
ENV NODE_ENV=production \
    DATA_DIR=/data \
    ENV_FILE=/data/github-app.env
WORKDIR /app
# Production dependencies only. --ignore-scripts: "prepare" would run tsc, a dev dependency
# (none of the production dependencies has an install script). Owned by root, so the
# service cannot modify its own code or dependencies.
COPY package.json package-lock.json ./
COPY packages/verify/package.json ./packages/verify/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/packages/verify/dist ./packages/verify/dist
# The synthetic screening sample, for demos only (used only if SCREENING_LISTS_DIR points at it).
COPY screening-lists ./screening-lists
# `receipts` on PATH (the package bin): docker exec <container> receipts keys list
# /data: the embedded store, its lock files and the generated signing key; owned by the `node`
# user of the official image (uid/gid 1000, asserted here), which a new named volume inherits.
RUN chmod 0755 dist/cli/main.js \
 && ln -s /app/dist/cli/main.js /usr/local/bin/receipts \
 && test "$(id -u node):$(id -g node)" = "1000:1000" \
 && command -v flock \
 && mkdir -p /data \
 && chown 1000:1000 /data \
 && chmod 0700 /data
VOLUME /data
# Numeric (= node:node) so Kubernetes can verify runAsNonRoot.
USER 1000:1000
EXPOSE 3000

# /readyz: the process is up and the store is reachable (503 otherwise). Node's own fetch: slim
# images have no curl or wget. Docker only; on Kubernetes use httpGet probes (docs/docker.md).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The server drains in-flight requests on SIGTERM (src/server.ts); give it time: docker stop -t 30.
STOPSIGNAL SIGTERM

# Entrypoint (inline, /bin/sh = dash), then the command (CMD, or what `docker run` passes):
# 1. Embedded store only (DATABASE_URL and DATABASE_URL_FILE unset): hold an flock(2) on
#    DATA_DIR for as long as the container lives (fd 9 is inherited by the command exec'd below; the kernel releases it
#    when the process dies, even on SIGKILL), so a second container on the same volume refuses
#    to start (exit 3). The service's own receipts.lock records a pid and its start time, which
#    means nothing across containers (each has its own pid 1); the flock does. Holding it, any
#    receipts.lock left in DATA_DIR by an unclean stop (OOM kill, docker stop timeout) is stale,
#    and the entrypoint removes it.
# 2. Default command only: `receipts migrate`, then the server. The migrate process releases
#    the store's lock when it exits; a failure stops the container with its exit code.
# 3. exec: the command replaces the shell as pid 1 and receives SIGTERM itself. A SIGTERM that
#    arrives during migrate stops the container once migrate is done, before the server starts.
# Other commands run after step 1 only:
#   docker run --rm -v receipts-data:/data receipts receipts keys list
# Exec form, so the command's arguments reach the script as "$@" ($0 = docker-entrypoint).
# Every line ends in a backslash (one JSON string); no line of the script may start with "#".
ENTRYPOINT ["/bin/sh", "-c", "\
  set -e; \
  trap 'exit 143' TERM; \
  trap 'exit 130' INT; \
  if [ -z \"$DATABASE_URL\" ] && [ -z \"$DATABASE_URL_FILE\" ]; then \
    mkdir -p \"$DATA_DIR\"; \
    if [ ! -w \"$DATA_DIR\" ]; then \
      echo \"docker-entrypoint: DATA_DIR $DATA_DIR is not writable by uid $(id -u); chown it to 1000:1000\" >&2; \
      exit 3; \
    fi; \
    exec 9>>\"$DATA_DIR/receipts.container.lock\"; \
    if ! flock -n 9; then \
      echo \"docker-entrypoint: the embedded store in $DATA_DIR is in use by another container; stop it first (one container per volume) or set DATABASE_URL\" >&2; \
      exit 3; \
    fi; \
    if [ -e \"$DATA_DIR/receipts.lock\" ]; then \
      echo \"docker-entrypoint: removing the stale $DATA_DIR/receipts.lock of an earlier unclean stop\" >&2; \
      rm -f \"$DATA_DIR/receipts.lock\"; \
    fi; \
  fi; \
  if [ \"$*\" = 'node dist/server.js' ]; then \
    node dist/cli/main.js migrate; \
  fi; \
  exec \"$@\"", "docker-entrypoint"]
CMD ["node", "dist/server.js"]

# OCI labels. docker build --build-arg VERSION=$(node -p "require('./package.json').version") \
#   --build-arg REVISION=$(git rev-parse HEAD) -t receipts .
ARG VERSION=unknown
ARG REVISION=unknown
LABEL org.opencontainers.image.title="verification-receipt-service" \
      org.opencontainers.image.description="Ed25519-signed, canonical, hash-committed verification receipts over HTTP" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.base.name="docker.io/library/node:24-bookworm-slim"
