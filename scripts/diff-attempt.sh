#!/usr/bin/env sh
# make diff-NN: an attempt's kernel against its parent's (the parent named in its README's front
# matter), with git alone, so that reading a diff needs no Python environment.
set -eu
cd "$(dirname "$0")/.."
dir=$(ls -d attempts/"$1"-* 2>/dev/null | head -n 1)
[ -n "$dir" ] || { echo "error: no attempt $1 (attempts/$1-*)" >&2; exit 2; }
parent=$(sed -n 's/^parent: *"\{0,1\}\([^"]*\)"\{0,1\} *$/\1/p' "$dir/README.md" | head -n 1)
[ -n "$parent" ] || { echo "error: attempt $1 has no parent to diff against" >&2; exit 2; }
pdir=$(ls -d attempts/"$parent"-* | head -n 1)
kernel() { if [ -f "$1/kernel.cu" ]; then echo "$1/kernel.cu"; else echo "$1/kernel.py"; fi; }
git diff --no-index --color=auto -- "$(kernel "$pdir")" "$(kernel "$dir")" || [ $? -eq 1 ]
