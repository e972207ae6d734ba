"""The LangGraph peer of writ-bench's run/ workloads: the same chain of no-op steps, timed with
the worker protocol of bench/src/worker.rs and bench/peers/node.mjs.

usage: python bench/peers/langgraph_peer.py <workload> <data-file> <samples>
prints one line: {"median_ns": <per iteration>, "check": "<string>", "samples_ns": [...], "iterations": n}

The graph is compiled once (untimed); each iteration runs it once, as a new thread (LangGraph's
run), with the checkpointer the workload names: InMemorySaver, or SqliteSaver on a file in a
scratch directory (LangGraph's own defaults: one connection, SQLite's default journal and
synchronous settings). `chain-N` runs with LangGraph's default durability ("async": a step is
persisted while the next one runs); `chain-N-unsafe` with "sync" (persisted before the next
step starts), as writ commits each step before a call that is not replay-safe. The packages
are pinned in bench/peers/requirements.txt.
"""

import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from typing import TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph

SAMPLE_TARGET_NS = 20_000_000
SLOW_SAMPLING_NS = 10_000_000_000
MIN_SAMPLES = 3


class State(TypedDict):
    steps: int


def step(state: State) -> dict:
    """A no-op step: counts itself, so the check shows every step ran."""
    return {"steps": state["steps"] + 1}


def chain(steps: int, checkpointer):
    graph = StateGraph(State)
    for index in range(steps):
        graph.add_node(f"c{index}", step)
        graph.add_edge(START if index == 0 else f"c{index - 1}", f"c{index}")
    graph.add_edge(f"c{steps - 1}", END)
    return graph.compile(checkpointer=checkpointer)


def main() -> None:
    name, _data_file, samples = sys.argv[1], sys.argv[2], int(sys.argv[3])
    parts = name.split("/")
    if len(parts) != 3 or parts[0] != "run" or not parts[1].startswith("chain-"):
        sys.exit(f"langgraph does not run {name!r}")
    shape = parts[1].removeprefix("chain-")
    durability = "sync" if shape.endswith("-unsafe") else "async"
    steps = int(shape.removesuffix("-unsafe"))
    scratch = tempfile.mkdtemp(prefix="writ-bench-langgraph-")
    try:
        if parts[2] == "memory":
            checkpointer = InMemorySaver()
        elif parts[2] == "sqlite":
            connection = sqlite3.connect(os.path.join(scratch, "checkpoints.db"), check_same_thread=False)
            checkpointer = SqliteSaver(connection)
        else:
            sys.exit(f"langgraph does not run {name!r}")
        graph = chain(steps, checkpointer)
        runs = 0
        result = None

        def iterate():
            nonlocal runs, result
            runs += 1
            config = {"configurable": {"thread_id": f"run-{runs}"}, "recursion_limit": steps + 10}
            result = graph.invoke({"steps": 0}, config, durability=durability)

        started = time.perf_counter_ns()
        iterate()
        iterations = max(1, SAMPLE_TARGET_NS // max(1, time.perf_counter_ns() - started))
        samples_ns = []
        sampling = time.perf_counter_ns()
        for _ in range(samples):
            started = time.perf_counter_ns()
            for _ in range(iterations):
                iterate()
            samples_ns.append((time.perf_counter_ns() - started) / iterations)
            if len(samples_ns) >= MIN_SAMPLES and time.perf_counter_ns() - sampling >= SLOW_SAMPLING_NS:
                break
        ordered = sorted(samples_ns)
        middle = len(ordered) // 2
        median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
        check = f"steps:{result['steps']}"
        print(json.dumps({"median_ns": median, "check": check, "samples_ns": samples_ns, "iterations": iterations}))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
