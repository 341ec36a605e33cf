# lendbot: the daemon in a container. Build: docker build -t lendbot .
# Or with compose.yaml beside this file: docker compose up -d --build. More: docs/operations.md.
# Proven without a Docker engine by scripts/verify-image-steps.sh, which performs these same
# steps in a temp directory.

# Build stage: compiles the TypeScript to JavaScript (npm run build: dist/, stamped with the
# hash of its sources), then drops the dev dependencies. better-sqlite3 compiles here when no
# prebuilt binary matches, so the compilers never reach the runtime image.
# Node 26, the Active LTS since October 2026 (24 is in maintenance). Both stages use the same image:
# better-sqlite3's native module is built here for this Node's ABI and must load in the runtime
# stage (scripts/verify-image-steps.sh checks they match). package.json keeps engines >=20.19, so
# npm install still works on machines with Node 20.19 or newer.
FROM node:26-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY src ./src
RUN npm run build
RUN npm prune --omit=dev --no-audit --no-fund

# Runtime stage: the compiled JavaScript only (no src/): a third of the start-up time and less
# memory than the sources through tsx. tsx stays a production dependency, for strategy plugins
# written in TypeScript (docs/operations.md).
FROM node:26-slim
ENV NODE_ENV=production \
    LENDBOT_DB=/data/lendbot.db \
    LENDBOT_WEBHOOK_PORT=8080
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY package.json ./
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY config ./config
COPY strategies ./strategies
RUN mkdir -p /data && chown node:node /data
USER node
# The database lives here; mount config/ and strategies/ over /app/config and /app/strategies.
VOLUME ["/data"]
EXPOSE 8080 8081
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.LENDBOT_WEBHOOK_PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM (docker stop) stops intake, finishes work in flight and exits 0 within 10 s:
# give docker stop at least that (--stop-timeout 15, compose stop_grace_period: 15s).
STOPSIGNAL SIGTERM
# `lendbot run` trades on the marketplace only: without LENDBOT_BASE_URL, LENDBOT_API_KEY,
# LENDBOT_SECRET_KEY and LENDBOT_WEBHOOK_SECRET it exits 1 naming them, never falling back to the
# simulation. A demo passes `run --sandbox` as the command.
# --max-semi-space-size=2: a young generation of 2 MB a half instead of 16: the daemon allocates
# little per request, and this keeps about 25 MB of its resident memory (docs/operations.md).
ENTRYPOINT ["node", "--max-semi-space-size=2", "dist/cli/main.js"]
CMD ["run"]
