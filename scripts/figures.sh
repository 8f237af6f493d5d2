#!/bin/sh
# Makes docs/figures.md: the figures the docs quote about the decks and the
# computer players, each with the command that made it and the time it took
# on the machine that ran it. Run from the repository's top folder:
#
#     scripts/figures.sh            # about 20 minutes on 2 cores
#
# Every run is seeded, so the same code and content give the same figures on
# any machine; only the times differ.
set -eu
cargo build --release --quiet
bin=$(pwd)/target/release/alien-checkers
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
page=$work/figures.md

# simulate TITLE ARGS...: one run, its command (files in the scratch folder
# named by their own names), time and report.
simulate() {
    title=$1
    shift
    start=$(date +%s)
    "$bin" simulate --root . "$@" >"$work/report.txt" 2>/dev/null
    took=$(($(date +%s) - start))
    shown=""
    for word in "$@"; do
        case $word in *" "*) word="\"$word\"" ;; esac
        shown="$shown${shown:+ }$word"
    done
    shown=$(printf '%s' "$shown" | sed "s|$work/||g")
    {
        printf '## %s\n\n```\n$ alien-checkers simulate %s   # %s s\n' "$title" "$shown" "$took"
        sed "s|$work/||g" "$work/report.txt"
        printf '```\n\n'
    } >>"$page"
}

{
    printf '# Figures\n\n'
    printf 'Made by `scripts/figures.sh` on %s (%s cores); ' "$(date -u +%Y-%m-%d)" "$(nproc)"
    printf 'alien-checkers %s, commit %s. ' "$("$bin" --version | cut -d' ' -f2)" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    printf 'Do not edit by hand: run the script again.\n\n'
} >"$page"

simulate "The standard deck at greedy (balance, planets, cards)" --games 2000 --games-out "$work/games.jsonl"
simulate "What each card is worth to its side (ablation; the games as dealt taken from the run above)" \
    --games 1000 --ablate all --baseline "$work/games.jsonl"

# A designer's question: does Jupiter stay strong when it counts only from
# turn 12 on? The copy of the content differs from the shipped one by that line.
copy=$work/jupiter-from-turn-12
mkdir -p "$copy"
cp -r cards planets "$copy"
sed -i 's|^  return ctx:monolith() == "d4"$|  return ctx:monolith() == "d4" and ctx:turn() >= 12|' "$copy/planets/jupiter.lua"
grep -q 'ctx:turn() >= 12' "$copy/planets/jupiter.lua"
simulate "A planet changed: Jupiter held only from turn 12, the same deals played on both, seats swapped" \
    --against-root "$copy" --swap-seats --games 4000 --primary "jupiter holder score"
simulate "The levels' strength: easy against greedy, standard deck" --a easy --b greedy --games 200
simulate "The levels' strength: normal against easy, standard deck" --a normal --b easy --games 200
simulate "The levels' strength: easy against greedy, plain checkers" --deck plain --a easy --b greedy --games 200
simulate "The levels' strength: normal against easy, plain checkers" --deck plain --a normal --b easy --games 200

mv "$page" docs/figures.md
echo "wrote docs/figures.md"
