#!/usr/bin/env bash
# Proves the Dockerfile without a Docker engine: performs its steps in a temp directory.
#
#   images        both stages FROM the same Node image (better-sqlite3 is compiled for its ABI); the
#                 steps below run on this machine's Node, which package.json's engines must cover
#   build stage   its COPY lines and its `npm ...` RUN lines (apt-get needs a real image: skipped):
#                 npm ci, npm run build (src/ compiled to dist/), npm prune --omit=dev
#   runtime stage its COPY lines (also --from=build), honouring .dockerignore for directories;
#                 it must hold the compiled dist/ (stamped) and no TypeScript sources, and its
#                 ENTRYPOINT must run dist/cli/main.js (compiled JavaScript, no tsx)
#   refuse        its ENTRYPOINT + CMD with its ENV and no credentials: must exit 1 with the one-line
#                 message naming the variables to set and --sandbox (never trade in a simulation
#                 while reporting healthy), creating no database
#   start         the same with the credentials of a `lendbot sandbox` server standing in for the
#                 marketplace, LENDBOT_DB pointed at a temp "volume" and a free port; waits for its
#                 HEALTHCHECK command to pass; then SIGTERM, expecting exit 0, no sandbox mode in
#                 the log, and the database in the volume, mode 0600, the volume's mode unchanged.
#
# Usage: scripts/verify-image-steps.sh        (needs node and npm; npm ci uses the registry or cache)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/lendbot-image-XXXXXX")"
pid=""
market_pid=""
cleanup() {
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  if [[ -n "$market_pid" ]] && kill -0 "$market_pid" 2>/dev/null; then kill -KILL "$market_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
step() { printf '\n== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; [[ -f "$work/run.log" ]] && tail -n 40 "$work/run.log" >&2; exit 1; }

cd "$root"
mkdir -p "$work/stage0" "$work/stage1" "$work/data"
chmod 755 "$work/data" # as the image's RUN mkdir -p /data leaves it
volume_mode="$(stat -c %a "$work/data")"

# Each Dockerfile instruction on one line (continuations joined), comments dropped.
mapfile -t lines < <(sed -e 's/#.*$//' Dockerfile | awk '{ if (sub(/\\[ \t]*$/, "")) { buf = buf $0 " " } else { print buf $0; buf = "" } }' | grep -v '^[[:space:]]*$')

ignored() { # is this top-level path excluded by .dockerignore?
  grep -qxF "$1" <(sed -e 's/#.*$//' -e 's#/$##' .dockerignore | grep -v '^[[:space:]]*$')
}

stage=-1
images=()
env_args=()
entrypoint="" cmd="" healthcheck=""
for line in "${lines[@]}"; do
  read -r instruction rest <<<"$line"
  case "$instruction" in
    FROM) stage=$((stage + 1)); images+=("${rest%% *}"); step "stage $stage: $rest" ;;
    WORKDIR) ;; # every stage works in /app, mapped to $work/stage<N>
    COPY)
      read -r -a args <<<"$rest"
      from_dir="$root"
      if [[ "${args[0]}" == --from=* ]]; then from_dir="$work/stage0"; args=("${args[@]:1}"); fi
      dest="${args[-1]}"; unset 'args[-1]'
      for source in "${args[@]}"; do
        source="${source#/app/}"
        if [[ "$from_dir" == "$root" ]] && ignored "$source"; then fail "COPY $source, but .dockerignore excludes it"; fi
        echo "COPY $source -> $dest"
        mkdir -p "$work/stage$stage/$(dirname "$dest")"
        cp -R "$from_dir/$source" "$work/stage$stage/${dest%/}$([[ "$dest" == */ ]] && echo "/$(basename "$source")")"
      done
      ;;
    RUN)
      if [[ "$rest" == npm\ * ]]; then
        echo "RUN $rest"
        (cd "$work/stage$stage" && eval "$rest") || fail "RUN $rest"
      else
        echo "skipped (needs the image): RUN $rest"
      fi
      ;;
    ENV)
      # KEY=VALUE pairs; values in the Dockerfile have no spaces.
      for pair in $rest; do env_args+=("$pair"); done
      ;;
    HEALTHCHECK) healthcheck="${rest#*CMD }" ;;
    ENTRYPOINT) entrypoint="$rest" ;;
    CMD) cmd="$rest" ;;
  esac
done

# better-sqlite3's native module is compiled in the build stage for that Node's ABI: the runtime
# stage must run the same Node, or the module fails to load at start.
[[ "${#images[@]}" == 2 && "${images[0]}" == "${images[1]}" ]] || fail "the build and runtime stages use different images (${images[*]}): better-sqlite3 is compiled for the build stage's Node"
# These steps run on this machine's Node, not the image's: both must satisfy package.json's engines.
image_node="$(sed -n 's/^node:\([0-9][0-9]*\).*/\1/p' <<<"${images[1]}")"
engines="$(node -p 'require("./package.json").engines.node')"
covers() { node -e 'const r = /^>=(\d+)\.(\d+)$/.exec(process.argv[1]); const [major, minor] = process.argv[2].split(".").map(Number); process.exit(!r || major > +r[1] || (major === +r[1] && minor >= +r[2]) ? 0 : 1)' "$engines" "$1"; }
[[ -n "$image_node" ]] || fail "the runtime image is not node:<major>...: ${images[1]}"
covers "$image_node.99" || fail "the image's Node $image_node is outside package.json's engines ($engines)"
covers "$(node -p process.versions.node)" || fail "this machine's Node $(node -v) is outside package.json's engines ($engines)"
echo "image: ${images[1]} (Node $image_node); these steps ran on Node $(node -v); engines $engines covers both"
[[ -d "$work/stage1/node_modules/better-sqlite3" ]] || fail "better-sqlite3 missing from the runtime stage"
[[ ! -d "$work/stage1/node_modules/typescript" ]] || fail "dev dependencies (typescript) reached the runtime stage"
[[ -f "$work/stage1/dist/cli/main.js" && -f "$work/stage1/dist/source-stamp.txt" ]] || fail "no stamped dist/ (npm run build) in the runtime stage"
[[ ! -e "$work/stage1/src" ]] || fail "the TypeScript sources reached the runtime stage (it runs dist/)"
[[ "$entrypoint" == *'"dist/cli/main.js"'* ]] || fail "the ENTRYPOINT does not run the compiled dist/cli/main.js: $entrypoint"
echo "runtime stage: compiled dist/ ($(find "$work/stage1/dist" -name '*.js' | wc -l) files), no src/"
# `docker exec lendbot node bin/lendbot.js ...` (the docs' examples) runs the same compiled code.
(cd "$work/stage1" && env -i "PATH=$PATH" node bin/lendbot.js --help) | grep -q '^Usage: lendbot' || fail "node bin/lendbot.js --help failed in the runtime stage"

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
json_args() { node -e 'for (const a of JSON.parse(process.argv[1])) console.log(a)' "$1"; }
mapfile -t command < <(json_args "$entrypoint"; json_args "$cmd")
port="$(free_port)"
base_env=(env -i "PATH=$PATH" "HOME=$work" "${env_args[@]}" "LENDBOT_DB=$work/data/lendbot.db" "LENDBOT_WEBHOOK_PORT=$port")

# Without credentials the container must refuse to start, saying what to set: never trade in a
# simulation while reporting healthy.
step "start without credentials: $entrypoint $cmd"
set +e
(cd "$work/stage1" && timeout 60 "${base_env[@]}" "${command[@]}") >"$work/refused.log" 2>&1
code=$?
set -e
[[ "$code" == 1 ]] || fail "exit code $code without credentials (expected 1; 124 means it kept running)"
expected='lendbot: LENDBOT_BASE_URL, LENDBOT_API_KEY, LENDBOT_SECRET_KEY and LENDBOT_WEBHOOK_SECRET are not set: set them to trade on the marketplace, or run `lendbot run --sandbox` for the simulated one (no real money)'
[[ "$(cat "$work/refused.log")" == "$expected" ]] || fail "not the one-line message naming the variables and --sandbox: $(cat "$work/refused.log")"
echo "refused (exit 1): $(cat "$work/refused.log")"
[[ ! -e "$work/data/lendbot.db" ]] || fail "a database was created although nothing started"

# With credentials, against a marketplace (the sandbox server, standing in for the real one).
step "marketplace: lendbot sandbox --port"
market_port="$(free_port)"
(cd "$work/stage1" && exec env -i "PATH=$PATH" "HOME=$work" node bin/lendbot.js sandbox --port "$market_port") >"$work/market.log" 2>&1 &
market_pid=$!
for _ in $(seq 1 120); do grep -q '^export LENDBOT_WEBHOOK_SECRET=' "$work/market.log" && break; sleep 0.5; done
mapfile -t credentials < <(sed -n 's/^export \(LENDBOT_[A-Z_]*=.*\)$/\1/p' "$work/market.log")
[[ "${#credentials[@]}" == 4 ]] || fail "the sandbox did not print its credentials: $(cat "$work/market.log")"
run_env=("${base_env[@]}" "${credentials[@]}")

step "start: $entrypoint $cmd"
(cd "$work/stage1" && exec "${run_env[@]}" "${command[@]}") >"$work/run.log" 2>&1 &
pid=$!

step "healthcheck: $healthcheck"
mapfile -t probe < <(json_args "$healthcheck")
healthy=""
for _ in $(seq 1 120); do
  kill -0 "$pid" 2>/dev/null || fail "lendbot exited before it was healthy"
  if (cd "$work/stage1" && "${run_env[@]}" "${probe[@]}"); then healthy=yes; break; fi
  sleep 0.5
done
[[ -n "$healthy" ]] || fail "/healthz did not answer 200 within 60 s"
echo "healthy: $(node -e "fetch('http://127.0.0.1:$port/healthz').then(r=>r.text()).then(t=>console.log(t))")"

step "SIGTERM"
kill -TERM "$pid"
set +e
wait "$pid"
code=$?
set -e
pid=""
[[ "$code" == 0 ]] || fail "exit code $code after SIGTERM (expected 0)"
[[ -s "$work/data/lendbot.db" ]] || fail "no database in the /data volume"
grep -q 'SANDBOX MODE' "$work/run.log" && fail "the daemon ran the simulation, not the marketplace it was given"
# Personal data at rest (docs/store.md): the file is owner-only; the volume, not lendbot's, is left alone.
db_mode="$(stat -c %a "$work/data/lendbot.db")"
[[ "$db_mode" == 600 ]] || fail "database mode $db_mode (expected 600)"
[[ "$(stat -c %a "$work/data")" == "$volume_mode" ]] || fail "the volume's mode changed from $volume_mode"
echo "exit code 0; database $(du -h "$work/data/lendbot.db" | cut -f1) in the volume, mode $db_mode (volume still $volume_mode)"
kill -TERM "$market_pid" 2>/dev/null || true
wait "$market_pid" 2>/dev/null || true
market_pid=""
printf '\nverify-image-steps: OK\n'
