#!/bin/sh
# Everything a fresh clone needs beyond Node and npm: pnpm (pinned, through npx),
# the dependencies (lockfile), and the package builds. Run before every demo, sandbox
# and test command, so it skips what is up to date: the install when the lockfile and
# manifests are unchanged since the last one, and each package's build when none of its
# inputs (or the builds of the workspace packages it uses) is newer than its last build.
# PAYSESSION_FORCE_SETUP=1 does everything again.
set -e
cd "$(dirname "$0")/.."
STAMPS=node_modules/.paysession-setup
PNPM="node scripts/pnpm.mjs"

manifests=$(cat pnpm-lock.yaml pnpm-workspace.yaml package.json packages/*/package.json apps/*/package.json e2e/package.json e2e/runtimes/package.json examples/*/package.json bench/package.json 2>/dev/null | cksum)
if [ -n "$PAYSESSION_FORCE_SETUP" ] || [ ! -d node_modules/.pnpm ] ||
  [ "$(cat "$STAMPS/install" 2>/dev/null)" != "$manifests" ]; then
  # The dependencies' own install scripts run beside the package builds below, which need none
  # of them: better-sqlite3 compiles SQLite on one core for about a minute, anvil and the
  # runtimes unpack their binaries.
  $PNPM install --frozen-lockfile --ignore-scripts --reporter=append-only 2>&1 | grep -vE '^(Progress|npm warn)' || true
  test -d node_modules/.pnpm || { echo "pnpm install failed" >&2; exit 1; }
  mkdir -p "$STAMPS"
  rm -f "$STAMPS/install" "$STAMPS"/build-*
  $PNPM rebuild -r > "$STAMPS/scripts.log" 2>&1 &
  scripts=$!
fi

# The install is stamped once its scripts have run: an interrupted one is done again next time.
finish() {
  [ -z "$scripts" ] && exit 0
  wait "$scripts" || { cat "$STAMPS/scripts.log" >&2; echo "the dependencies' install scripts failed" >&2; exit 1; }
  echo "$manifests" > "$STAMPS/install"
  exit 0
}

# A package's build inputs: its sources and configs and the shared tsconfig. (A package is
# also rebuilt when a workspace package it uses is, below.)
inputs() {
  for f in package.json tsconfig.build.json tsconfig.json vite.config.ts src scripts artifacts; do
    [ -e "packages/$1/$f" ] && echo "packages/$1/$f"
  done
  echo tsconfig.base.json
}

stale() {
  stamp=$STAMPS/build-$1
  [ -f "$stamp" ] && [ -d "packages/$1/dist" ] || return 0
  [ -n "$(find $(inputs "$1") -newer "$stamp" -print 2>/dev/null | head -n 1)" ]
}

deps() {
  sed -n 's/.*"@paysession\/\([a-z-]*\)": "workspace:.*/\1/p' "packages/$1/package.json"
}

# The widget's language list, generated from its language files (written only when it changes):
# written before the stamps are compared, so that its first writing does not look like an edit
# made during the widget's build.
node packages/checkout/scripts/languages.mjs

# In dependency order (known packages first), so a package whose dependency is rebuilt is rebuilt too.
order="protocol core server sandbox checkout"
for dir in packages/*/; do
  name=$(basename "$dir")
  case " $order " in *" $name "*) ;; *) order="$order $name" ;; esac
done
todo=""
for pkg in $order; do
  [ -f "packages/$pkg/package.json" ] && grep -q '"build"' "packages/$pkg/package.json" || continue
  rebuild=""
  [ -n "$PAYSESSION_FORCE_SETUP" ] && rebuild=1
  stale "$pkg" && rebuild=1
  for dep in $(deps "$pkg"); do
    case " $todo " in *" $dep "*) rebuild=1 ;; esac
  done
  [ -n "$rebuild" ] && todo="$todo $pkg"
done
[ -z "$todo" ] && finish

# Stamped from the start: a file edited during the build makes the next run build again.
filters=""
for pkg in $todo; do
  touch "$STAMPS/build-$pkg.next"
  filters="$filters --filter ./packages/$pkg"
done
$PNPM -r $filters build
for pkg in $todo; do mv "$STAMPS/build-$pkg.next" "$STAMPS/build-$pkg"; done
finish
