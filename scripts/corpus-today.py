#!/usr/bin/env python3
"""Refreshes what gpuvet does today with the corpus of real outputs (tests/fixtures/corpus).

Runs `gpuvet analyze FILE --json` on every file of truth.json, writes each result into the file's
"today" (exit code, interconnect class, GPU count, first GPU's name, finding codes; or the error)
and rewrites the "gpuvet today" and "Gap" columns of SOURCES.md from truth.json (rows for new
files are added from their truth entry). Ground truth and gaps are never changed here: a gap is
closed by hand in truth.json, and tests/cli/corpus_test.cpp checks the files without one.

usage: scripts/corpus-today.py [GPUVET]      GPUVET defaults to build/default/src/cli/gpuvet
Prints the count of files with and without a recorded gap.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "tests", "fixtures", "corpus")


def today_of(gpuvet, rel):
    run = subprocess.run([gpuvet, "analyze", os.path.join(CORPUS, rel), "--json"], capture_output=True, text=True)
    if run.returncode in (0, 1, 3):
        report = json.loads(run.stdout)
        gpus = report.get("gpus", [])
        name = gpus[0].get("name") if gpus else None
        return {"class": report["interconnect"]["class"], "exit": run.returncode,
                "findings": [f["code"] for f in report.get("findings", [])], "gpus": len(gpus),
                "model": name if isinstance(name, str) else None}
    message = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else ""
    prefix = "gpuvet: " + os.path.join(CORPUS, rel) + ": "
    return {"error": message[len(prefix):] if message.startswith(prefix) else message, "exit": run.returncode}


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def today_text(today):
    if "error" in today:
        return f"exit {today['exit']}: {today['error']}"
    return (f"exit {today['exit']}; {today['class']}; {today['gpus']} GPUs"
            + (f" ({today['model']})" if today.get("model") else "")
            + (f"; {', '.join(today['findings'])}" if today.get("findings") else ""))


def new_row(rel, t):
    truth = []
    for key in ("interconnect", "gpus", "model", "ranks", "nodes"):
        if t.get(key) is not None:
            truth.append(f"{key} {t[key]}")
    truth += t.get("failures", []) + t.get("anomalies", [])
    return ["", rel, t.get("source", ""), t.get("hardware", ""), "; ".join(truth) or "see truth.json", t.get("note", ""), "", "", ""]


def main():
    gpuvet = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "default", "src", "cli", "gpuvet")
    path = os.path.join(CORPUS, "truth.json")
    with open(path, encoding="utf-8") as f:
        truth = json.load(f)
    for rel in sorted(truth):
        truth[rel]["today"] = today_of(gpuvet, rel)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(truth, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")

    sources = os.path.join(CORPUS, "SOURCES.md")
    with open(sources, encoding="utf-8") as f:
        lines = f.read().split("\n")
    rows, head, tail = {}, [], []
    for line in lines:
        parts = line.split(" | ")
        rel = parts[0][2:] if line.startswith("| ") else ""
        if rel in truth:
            rows[rel] = line
        elif rows:
            tail.append(line)
        else:
            head.append(line)
    out = []
    for rel in sorted(truth):
        t = truth[rel]
        if rel in rows:
            cols = rows[rel].split(" | ")
            cols = cols[:5] if len(cols) >= 7 else cols
        else:
            cols = ["| " + rel] + [cell(c) for c in new_row(rel, t)[2:6]]
        out.append(" | ".join(cols + [cell(today_text(t["today"])), cell(t.get("gap", "")) + " |"]))
    with open(sources, "w", encoding="utf-8") as f:
        f.write("\n".join(head + out + tail))
    gaps = sum(1 for t in truth.values() if t.get("gap"))
    print(f"corpus: {len(truth)} files, {len(truth) - gaps} without a recorded gap, {gaps} with one")


if __name__ == "__main__":
    main()
