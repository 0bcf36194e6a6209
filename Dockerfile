# One image for every service of the workspace; docker-compose.yml picks the command.
FROM node:20-bookworm-slim

# RE2 and better-sqlite3 compile from source on install.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml tsconfig.base.json tsconfig.json ./
COPY shared shared
COPY agents agents
COPY stack stack
COPY test/package.json test/package.json
COPY fixtures fixtures
COPY patches patches
RUN npx -y pnpm@10.34.9 install --frozen-lockfile

ENV NODE_ENV=production
# Not root: the node image's own user, with data/ (SQLite files, when a service is given no
# PostgreSQL) its own and no one else's. The code stays root's, so a service cannot rewrite it.
RUN mkdir -p /app/data && chown node:node /app/data && chmod 0700 /app/data
USER node
# Overridden per service in docker-compose.yml.
CMD ["node", "--import", "tsx", "stack/src/authority-main.ts"]
