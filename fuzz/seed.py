"""Seeds the fuzz corpora from writ's own data files: run from fuzz/ before the first run."""
import json
import pathlib

here = pathlib.Path(__file__).parent
structured = here / "corpus" / "structured"
reader = here / "corpus" / "json_reader"
structured.mkdir(parents=True, exist_ok=True)
reader.mkdir(parents=True, exist_ok=True)
cases = (here / "../crates/writ-cells/tests/corpus/structured.jsonl").read_text().splitlines()
for idx, line in enumerate(cases):
    case = json.loads(line)
    data = json.dumps(case.get("data"), ensure_ascii=False)
    predicate = json.dumps(case["expr"], ensure_ascii=False)
    (structured / f"seed{idx:03}").write_bytes((predicate + "\0" + data).encode())
    (reader / f"seed{idx:03}").write_bytes(data.encode())
for idx, line in enumerate((here / "../examples/predicates.jsonl").read_text().splitlines()):
    (reader / f"example{idx:03}").write_bytes(line.encode())
js = here / "corpus" / "js"
js.mkdir(parents=True, exist_ok=True)
for path in sorted((here / "../crates/writ-js/tests/corpus").rglob("*.jsonl")):
    for idx, line in enumerate(path.read_text().split("\n")):
        if not line.strip():
            continue
        case = json.loads(line)
        data = json.dumps(case.get("data", {}), ensure_ascii=False)
        (js / f"{path.stem}{idx:04}").write_bytes((case["expr"] + "\0" + data).encode("utf-8", "surrogatepass"))
jsonata = here / "corpus" / "jsonata"
jsonata.mkdir(parents=True, exist_ok=True)
suite = here / "../crates/writ-jsonata/tests/jsonata-suite/groups"
count = 0
for path in sorted(suite.rglob("*.json")):
    loaded = json.loads(path.read_text())
    for case in loaded if isinstance(loaded, list) else [loaded]:
        expr = case.get("expr")
        if expr is None:
            continue
        data = json.dumps(case.get("data", {}), ensure_ascii=False)
        (jsonata / f"suite{count:05}").write_bytes((expr + "\0" + data).encode("utf-8", "surrogatepass"))
        count += 1
for path in sorted((here / "../crates/writ-jsonata/tests/corpus").glob("*.jsonl")):
    for idx, line in enumerate(path.read_text().split("\n")):
        if not line.strip():
            continue
        case = json.loads(line)
        data = json.dumps(case.get("data", {}), ensure_ascii=False)
        (jsonata / f"{path.stem}{idx:04}").write_bytes((case["expr"] + "\0" + data).encode("utf-8", "surrogatepass"))
jexl = here / "corpus" / "jexl"
jexl.mkdir(parents=True, exist_ok=True)
jexl_tests = here / "../crates/writ-jexl/tests"
for path in sorted(jexl_tests.glob("corpus/*.jsonl")) + sorted(jexl_tests.glob("semantics/*.jsonl")):
    for idx, line in enumerate(path.read_text().split("\n")):
        if not line.strip():
            continue
        case = json.loads(line)
        if "doc" in case:
            data = (jexl_tests / "corpus" / "data" / (case["doc"] + ".json")).read_text()
        else:
            data = json.dumps(case.get("data", {}), ensure_ascii=False)
        (jexl / f"{path.stem}{idx:04}").write_bytes((case["expr"] + "\0" + data).encode("utf-8", "surrogatepass"))
lua = here / "corpus" / "lua"
lua.mkdir(parents=True, exist_ok=True)
lua_tests = here / "../crates/writ-lua/tests"
for idx, line in enumerate((lua_tests / "adversarial.txt").read_text().split("\n")):
    if not line.strip() or line.startswith("#"):
        continue
    source = line.split(" | ", 2)[2]
    (lua / f"adversarial{idx:03}").write_bytes((source + "\0" + '{"n": 41}').encode())
for idx, line in enumerate((here / "../crates/writ-cells/tests/cells/lua.jsonl").read_text().split("\n")):
    if not line.strip():
        continue
    case = json.loads(line)
    predicate = case["node"]["predicate"]
    if not isinstance(predicate, str):
        continue
    ctx = {key: items for key, items in case.get("outputs", {}).items()}
    (lua / f"cell{idx:03}").write_bytes((predicate + "\0" + json.dumps(ctx, ensure_ascii=False)).encode())
