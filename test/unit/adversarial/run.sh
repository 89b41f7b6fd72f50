#!/bin/sh
# Runs only the given adversarial test files (not the whole unit suite the mocha config lists).
cd "$(dirname "$0")/../../.." && exec timeout 300 npx mocha --no-config --require tsx/cjs --timeout 30000 "$@"
