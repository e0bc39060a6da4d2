#!/usr/bin/env bash
# See results/explore/small-route/run.sh.
exec bash "$(dirname "$0")/results/explore/small-route/run.sh" "$@"
