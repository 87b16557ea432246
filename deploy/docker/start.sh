#!/bin/sh
# The image's command. A container's own disk is no place for the control plane, and servers in
# several regions must share one, so the image refuses to start without DATABASE_URL rather
# than fall back to an embedded Postgres (whose binaries it does not ship). The command is
# package.json's "serve" script (the deploy test checks they stay the same).
set -eu
if [ -z "${DATABASE_URL:-}" ]; then
  echo 'DATABASE_URL is required: this image runs on your own Postgres (14+, wal_level=logical); see docs/deploy.md' >&2
  exit 1
fi
exec node --max-semi-space-size=64 dist/server/index.js
