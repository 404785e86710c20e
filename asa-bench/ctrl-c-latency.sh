#!/usr/bin/env bash
# Ctrl-C latency of ./asa serve as a user sees it: in a tmux terminal, start it, wait for /ready,
# press Ctrl-C (tmux send-keys C-c), time until the shell prompt is back. One line per run.
# Usage: asa-bench/ctrl-c-latency.sh [CHECKOUT] [RUNS]  (needs tmux and curl; port 8111)
set -u
cd "${1:-$(dirname "$0")/..}"
runs="${2:-5}"
./asa --version >/dev/null 2>&1   # builds the jar if stale
for i in $(seq 1 "$runs"); do
  dir=$(mktemp -d)
  tmux kill-session -t ctrlc 2>/dev/null
  tmux new-session -d -s ctrlc -x 200 -y 50
  tmux send-keys -t ctrlc "./asa serve --port 8111 --data-dir $dir; echo EXITED-\$?" Enter
  for _ in $(seq 1 6000); do
    curl -fs -o /dev/null http://127.0.0.1:8111/ready && break
    sleep 0.1
  done
  start=$(date +%s%N)
  tmux send-keys -t ctrlc C-c
  until tmux capture-pane -p -t ctrlc | grep -q "EXITED-[0-9]"; do sleep 0.01; done
  end=$(date +%s%N)
  echo "run $i: $(tmux capture-pane -p -t ctrlc | grep -o "EXITED-[0-9][0-9]*") after $(( (end - start) / 1000000 )) ms"
  tmux kill-session -t ctrlc
  rm -rf "$dir"
done
