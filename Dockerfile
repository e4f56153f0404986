# Tally: multi-stage image, non-root, with a health check.
# Node 24 pinned to 24.18.1: from 24.19 on, better-sqlite3 12 aborts the process when the garbage
# collector frees a statement (README "Dependencies"); .ci/run tests this same version.
FROM node:24.18.1-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source where no prebuilt binary fits.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY bin bin
COPY lib lib
COPY plugins plugins
COPY formatters formatters
COPY ci-providers ci-providers
# npm run build bundles the upload client (dist/client/tally-upload.mjs) with this script.
COPY scripts/build-client.ts scripts/
RUN npm ci && npm prune --omit=dev

FROM node:24.18.1-bookworm-slim
ENV NODE_ENV=production PORT=8080 TALLY_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
# The web interface's CSS and JS, read at start (plugins/web/index.ts looks beside dist/).
COPY --from=build /app/plugins/web/static plugins/web/static
COPY package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The same heap settings as `npm start` (README "Memory"); telemetry starts before hapi loads, when
# OTEL_EXPORTER_OTLP_ENDPOINT is set (a no-op otherwise).
CMD ["node", "--max-semi-space-size=1", "--max-old-space-size=1024", "--import", "./dist/lib/telemetry/register.js", "dist/bin/tally.js", "serve"]
