# lendbot: the daemon in a container. Build: docker build -t lendbot .
# Run and compose examples: docs/operations.md. Proven without a Docker engine by
# scripts/verify-image-steps.sh, which performs these same steps in a temp directory.

# Build stage: production dependencies only; better-sqlite3 compiles here when no prebuilt
# binary matches, so the compilers never reach the runtime image.
FROM node:20-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# Runtime stage. The sources run through tsx (a production dependency), as `npm start` does:
# no compile step, and strategy plugins written in TypeScript load as they do on a laptop.
FROM node:20-slim
ENV NODE_ENV=production \
    LENDBOT_DB=/data/lendbot.db \
    LENDBOT_WEBHOOK_PORT=8080
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY src ./src
COPY config ./config
COPY strategies ./strategies
RUN mkdir -p /data && chown node:node /data
USER node
# The database lives here; mount config/ and strategies/ over /app/config and /app/strategies.
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.LENDBOT_WEBHOOK_PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM (docker stop) stops intake, finishes work in flight and exits 0 within 10 s:
# give docker stop at least that (--stop-timeout 15, compose stop_grace_period: 15s).
STOPSIGNAL SIGTERM
# `lendbot run` trades on the marketplace only: without LENDBOT_BASE_URL, LENDBOT_API_KEY,
# LENDBOT_SECRET_KEY and LENDBOT_WEBHOOK_SECRET it exits 1 naming them, never falling back to the
# simulation. A demo passes `run --sandbox` as the command.
ENTRYPOINT ["node", "bin/lendbot.js"]
CMD ["run"]
