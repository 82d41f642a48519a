# changeledger's container image: `docker build -t changeledger:0.1.0 .` (docs/deployment.md).
# Two stages: the first installs every dependency and builds the server (compiled into dist/server,
# then bundled into dist/bundle) and the web UI (dist/web); the second installs the production
# dependencies only and takes the built output, bin/, migrations/ and package.json — no sources,
# no tests, no dev dependencies, no compilers.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# The lock file first, so the dependency layer is reused while only the sources change.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/bundle-server.mjs ./scripts/
COPY src ./src
COPY web ./web
RUN npm run build

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force
COPY bin ./bin
COPY migrations ./migrations
COPY --from=build /app/dist ./dist
# The embedded database (PGlite), its lock, the admin socket and, unless CHANGELEDGER_SECRET_KEY is
# set, the data key (secret.key) live here; with DATABASE_URL nothing is written to it. The image's
# files stay owned by root, so the server cannot change its own code.
RUN mkdir -p /var/lib/changeledger && chown 1000:1000 /var/lib/changeledger
VOLUME ["/var/lib/changeledger"]
# Configuration comes from the environment (docs/running.md#options). The server's defaults bind
# to localhost, which nothing outside a container reaches: the image listens on every address.
ENV CHANGELEDGER_DATA=/var/lib/changeledger \
    HOST=0.0.0.0 \
    PORT=8080 \
    PIPELINE_HOST=0.0.0.0 \
    PIPELINE_PORT=4320
# 8080: web UI and session API (and, for --role worker, /healthz, /readyz, /metrics only);
# 4320: the pipeline listener (API tokens: CI pipelines, Alertmanager's webhook).
EXPOSE 8080 4320
# The base image's unprivileged "node" user, by number so that Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
# The slim image has no curl: Node's own fetch asks /readyz (200 once the database answers).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || '8080') + '/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# Node runs as PID 1 and handles SIGTERM itself: it finishes the requests in flight and the job
# batch in hand, closes the store and exits 0.
ENTRYPOINT ["node", "/app/bin/changeledger.js"]
CMD ["serve"]
