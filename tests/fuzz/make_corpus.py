#!/usr/bin/env python3
"""Writes the seed corpus of each fuzz target into corpus/<target>/: files from
tests/fixtures and resources (real captures, see corpus/SOURCES.md), and the hostile inputs
that issue 12 found, kept as regression cases. Run from anywhere; rerun after adding seeds.
Telemetry seeds start with one byte choosing the format (0 auto, 1 Prometheus text,
2 OpenMetrics, 3 range-query JSON, 4 long CSV, 5 nvidia-smi CSV)."""
import json
import pathlib
import struct

here = pathlib.Path(__file__).resolve().parent
root = here.parent.parent
corpus = here / "corpus"


def put(target, name, data):
    d = corpus / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data if isinstance(data, bytes) else data.encode())


# Topologies: generator parameters, an explicit file, and the findings.
small = {"format": "clusterscope-topology", "version": 1, "name": "tiny", "generator": {
    "name": "tiny", "clusters": [{"name": "c", "pods": 1, "racksPerPod": 2, "hostsPerRack": 2,
                                  "gpusPerHost": 8}]}}
put("topology", "params-tiny.json", json.dumps(small))
nvl72 = json.loads(json.dumps(small))
nvl72["generator"]["clusters"][0].update(scaleUp="rack", nvlinkSwitchTrays=3, gpusPerHost=4)
put("topology", "params-nvl-rack.json", json.dumps(nvl72))
put("topology", "custom-clos.json", (root / "resources/examples/custom-clos.json").read_bytes())
huge = json.loads(json.dumps(small))
huge["generator"]["clusters"][0].update(pods=1562, racksPerPod=16, hostsPerRack=10)
put("topology", "finding-1999872-gpus.json", json.dumps(huge))  # refused, not generated
put("topology", "finding-not-json.json", "<?xml version='1.0'?><graph/>")
put("topology", "explicit-empty.json", json.dumps(
    {"format": "clusterscope-topology", "version": 1, "explicit": {"hosts": [], "links": []}}))

# Foreign fabric formats (issue 11): the real files, and small exports of a preset.
for real in ["rdma-core-ibnetdiscover-topology-file-example.txt", "ibsim-net-examples-net.txt",
             "infragraph-two-tier-clos-fabric-infrastructure.yaml", "astra-sim-htsim-8nodes.topo"]:
    put("topology", real, (root / "tests/fixtures/real" / real).read_bytes())
put("topology", "networkx-tiny.json", json.dumps(
    {"graph": {"name": "nx"}, "nodes": [{"id": "h0", "kind": "host", "gpus": 2}, {"id": "leaf"},
                                        {"id": "spine", "tier": "spine"}],
     "links": [{"source": "h0", "target": "leaf", "gbps": 400, "gpu": 1, "sourcePort": 1},
               {"source": "leaf", "target": "spine", "gbps": 400}]}))
put("topology", "ns3-tiny.txt", "5 2 1 2 5 H100\n2 3 4\n0 2 2400Gbps 0.000025ms 0\n"
    "1 2 2400Gbps 0.000025ms 0\n0 3 400Gbps 0.0005ms 0\n1 3 400Gbps 0.0005ms 0\n"
    "3 4 400Gbps 0.0005ms 0\n")
put("topology", "infragraph-edges.json", json.dumps({"infrastructure": {
    "name": "e",
    "devices": [{"name": "srv", "components": [{"name": "npu", "type": "npu", "count": 2},
                                               {"name": "nic", "type": "nic", "count": 2}]},
                {"name": "sw", "components": [{"name": "port", "type": "port", "count": 8}]}],
    "links": [{"name": "l", "bandwidth": {"gigabits_per_second": 400}}],
    "instances": [{"name": "h", "device": "srv", "count": 2},
                  {"name": "leaf", "device": "sw", "count": 1}],
    "edges": [{"ep1": {"instance": "h[0:2]", "component": "nic[0]"},
               "ep2": {"instance": "leaf", "component": "port[0:2]"},
               "link": "l", "scheme": "one2one"}]}}))

# Run descriptions.
run = {"format": "clusterscope-run", "version": 2, "model": "llama3-8b", "gpu": "h100-sxm",
       "parallel": {"tp": 8, "pp": 4, "dp": 8, "seq": 8192, "batchSeqs": 64,
                    "microBatchSeqs": 1, "zeroStage": 1, "recompute": "selective",
                    "overlap": {"dpGradReduce": True, "ppComm": True}},
       "steps": 2}
put("run_spec", "llama3-8b.json", json.dumps(run))
custom = dict(run, model={"name": "m", "layers": 4, "hidden": 1024, "ffnHidden": 4096,
                          "ffnKind": "gelu", "heads": 16, "kvHeads": 16, "vocab": 32000,
                          "tiedEmbeddings": True})
put("run_spec", "custom-model.json", json.dumps(custom))
moe = dict(run, model={"name": "moe", "layers": 7, "hidden": 1024, "heads": 16, "kvHeads": 16,
                       "vocab": 32000, "mtpDepth": 1,
                       "moe": {"experts": 16, "activeExperts": 2, "sharedExperts": 1,
                               "expertFfnHidden": 512, "nodeLimit": 2,
                               "routing": {"skew": 1.3}},
                       "attention": {"kind": "mla", "qLoraRank": 256, "kvLoraRank": 128,
                                     "ropeHeadDim": 32, "headDim": 64,
                                     "slidingWindow": 128}},
           parallel=dict(run["parallel"], ep=8, schedule="zb-h1", overlap={"epComm": True}))
put("run_spec", "moe-model.json", json.dumps(moe))
put("run_spec", "dualpipe.json", json.dumps(
    dict(run, parallel=dict(run["parallel"], schedule="dualpipe", batchSeqs=128))))
put("run_spec", "finding-span-dot.json", json.dumps(dict(run, steps=None, span=".")))
put("run_spec", "finding-span-1.2.3h.json", json.dumps({**run, "span": "1.2.3h"}))
put("run_spec", "finding-huge-dp.json", json.dumps(
    {**run, "parallel": {**run["parallel"], "dp": 2**62}}))
put("run_spec", "version-1.json", json.dumps({"format": "clusterscope-run", "version": 1,
                                              "model": "llama3-405b", "gpu": "h100"}))

# Durations.
for i, d in enumerate(["0s", "100ms", "90s", "1h30m", "2d", "2.5s", "54d", "1.2.3h", ".s",
                       ".", "1e300s", "9223372036854775807ns", "-5s", "106751d", "1h-30m"]):
    put("durations", f"d{i:02d}", d)

# Telemetry: the real captures and fixtures, then the findings.
def tel(name, fmt, data):
    put("telemetry", name, bytes([fmt]) + data)

for f in ["tests/fixtures/real/dcgm-exporter-README-quickstart.prom",
          "tests/fixtures/real/nvsmi__linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__load.csv",
          "tests/fixtures/telemetry/dcgm-node-snmp.prom", "tests/fixtures/telemetry/dcgm.openmetrics",
          "tests/fixtures/telemetry/long.csv", "tests/fixtures/telemetry/range-query.json"]:
    tel(pathlib.Path(f).name, 0, (root / f).read_bytes())
head = (root / "resources/telemetry/small-256-4hosts-3m.prom").read_bytes()[:16000]
tel("small-256-head.prom", 1, head[:head.rfind(b"\n") + 1])
tel("finding-1e300-ms.prom", 1,
    b'DCGM_FI_DEV_GPU_UTIL{gpu="0",Hostname="demo.pod0.rack0.host0"} 97 1e300\n')
tel("finding-csv-far-future.csv", 4,
    b"ts,metric,entity,labels,value\n9.3e9,DCGM_FI_DEV_GPU_UTIL,demo.pod0.rack0.host0,gpu=0,97\n"
    b"-9.3e9,DCGM_FI_DEV_GPU_UTIL,demo.pod0.rack0.host0,gpu=0,97\n")
tel("finding-nvsmi-2263.csv", 5,
    b"timestamp, index, utilization.gpu [%], power.draw [W]\n"
    b"2263/01/01 00:00:00.000, 0, 100 %, 631.95 W\n")
tel("finding-om-prefix.om", 0, b"# TYPE up gauge\n" + b"up 1 1717200000\n" * 2000 + b"# EOF\n")
tel("finding-exemplar.om", 2,
    b'# TYPE foo counter\nfoo_total 17 1717200000 # {trace_id="x"} 1 1717200000\n# EOF\n')

# Mapping files.
put("map_file", "names.map.json", (root / "tests/fixtures/telemetry/names.map.json").read_bytes())
put("map_file", "everything.json", json.dumps({
    "names": {"node-7": "demo.pod0.rack0.host0", "rsw-3": "demo.pod0.rack0.rsw"},
    "patterns": [["node-(\\d+)", "demo.pod0.rack0.host\\1"]], "hostLabel": "Hostname",
    "uuids": {"GPU-1": "demo.pod0.rack0.host0.gpu5"}, "devices": {"mlx5_3": 2},
    "ports": {"Ethernet1/1": 1}}))
put("map_file", "finding-bad-regex.json", json.dumps({"patterns": [["(", "x"]]}))
put("map_file", "finding-catastrophic-regex.json",
    json.dumps({"patterns": [["(a+)+$", "x"]], "names": {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!": 3}}))

# Run stores: change programs (see fuzz_run_store.cpp): run byte, op count, then per op
# table, row, op, column and the value; then (offset, byte) patches of the file.
T = {t: i for i, t in enumerate(["meta", "runs", "run_metrics", "patterns", "timeline", "frames",
                                  "frame_stats", "history", "composed_sources", "composed_frames",
                                  "scalars", "events"])}
def op(table, row, kind, col, value=b""):
    return bytes([T[table], row, kind, col]) + value
put("run_store", "unchanged-recorded", bytes([0, 0]))
put("run_store", "unchanged-simulated", bytes([1, 0]))
put("run_store", "finding-3-byte-frame", bytes([0, 0]) + op("frames", 3, 4, 6, bytes([3]) + b"abc"))
put("run_store", "finding-null-event-detail",
    bytes([0, 2]) + op("events", 0, 7, 0) + op("events", 0, 0, 5))
put("run_store", "finding-end-near-2-63",
    bytes([1, 0]) + op("runs", 1, 1, 6, struct.pack(">q", 2**63 - 1)))
put("run_store", "finding-frame-size-changes",
    bytes([0, 0]) + op("run_metrics", 0, 1, 5, struct.pack(">q", 7)))
put("run_store", "finding-no-frame-at-start",
    bytes([0, 2]) + op("frames", 0, 6, 0) + op("frames", 0, 6, 0))
put("run_store", "finding-damaged-pages",
    bytes([0, 0]) + b"".join(struct.pack(">IB", 100 + 4099 * i, 0xff) for i in range(64)))

# Prometheus answers (issue 28): keys in another order, escapes, nesting past the bound,
# error answers, and a value where a pair belongs.
series = {"metric": {"__name__": "DCGM_FI_DEV_GPU_UTIL", "Hostname": "demo.pod0.rack0.host0",
                     "gpu": "0", "note": "tab\there \"quoted\" \\u00e9"},
          "values": [[1717200000, "97"], [1717200015.5, "95"], [1717200030, "NaN"]]}
tel("prom-answer-reordered.json", 3, json.dumps(
    {"data": {"result": [series], "resultType": "matrix"}, "status": "success"}).encode())
tel("prom-answer-escapes.json", 3, json.dumps(
    {"status": "success", "data": {"resultType": "matrix", "result": [series]}},
    ensure_ascii=True).replace("DCGM", "\\u0044CGM").encode())
tel("prom-answer-error.json", 3,
    b'{"status":"error","errorType":"bad_data","error":"1:1: parse error"}')
tel("prom-answer-scalar-pair.json", 3,
    b'{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"x"},'
    b'"values":[7,[1717200000],[1717200000,"1","2"],{"a":1}]}]}}')
tel("finding-prom-answer-600-deep.json", 3,
    b'{"status":"success","data":{"resultType":"matrix","result":' + b"[" * 600 + b"]" * 600 + b"}}")

# Sessions (issue 28): as the window saves one (version 2), version 1, a design session, and
# hostile ones.
view = {"layout": "fabric", "colour": "run", "aggregate": "mean", "gpuMetric": "gpu_power_w",
        "gpuRole": "stage", "labels": False,
        "camera": {"position": [1.5, -2e3, 40], "focalPoint": [0, 0, 0], "viewUp": [0, 0, 1]}}
session = {"format": "clusterscope-session", "version": 2, "topology": "../topo/custom.json",
           "run": "run.sqlite", "timeNs": 123456789, "selection": "demo.pod0.rack0.host0.gpu3",
           "nodeNameMap": "names.map", "structure": "/abs/structure.json",
           "compare": {"run": "b.sqlite", "topology": "preset:meta-roce-24k",
                       "linkedCameras": False},
           "bookmarks": [{"name": "spines", "layout": "fabric",
                          "camera": {"position": [0, 0, 900], "focalPoint": [0, 0, 0],
                                     "viewUp": [0, 1, 0]}}],
           "docks": "AAAA/wAAAAD9AAAAAg==", **view}
put("session", "saved-v2.clusterscope", json.dumps(session, indent=4))
put("session", "v1.clusterscope", json.dumps(
    {"format": "clusterscope-session", "version": 1, "topology": "preset:small-256",
     "layout": "floor", "colour": "kind"}))
put("session", "design.clusterscope", json.dumps(
    {"format": "clusterscope-session", "version": 2, "topology": "edited",
     "design": {"format": "clusterscope-topology", "version": 1,
                "generator": {"clusters": [{"pods": 2}]}}}))
put("session", "finding-10000-bookmarks.clusterscope", json.dumps(
    {"format": "clusterscope-session", "version": 2, "topology": "preset:small-256",
     "bookmarks": [{"name": f"b{i}", "layout": "floor",
                    "camera": {"position": [i, 0, 1], "focalPoint": [0, 0, 0],
                               "viewUp": [0, 0, 1]}} for i in range(10000)]}))
put("session", "finding-newer-version.clusterscope", json.dumps(
    {"format": "clusterscope-session", "version": 99, "topology": "preset:small-256"}))
put("session", "finding-camera-nan.clusterscope",
    '{"format":"clusterscope-session","version":2,"topology":"x",'
    '"camera":{"position":[1e999,0,0],"focalPoint":[0,0,0],"viewUp":[0,0,0]}}')
put("session", "finding-paths.clusterscope", json.dumps(
    {"format": "clusterscope-session", "version": 2, "topology": "../../../../../../etc/passwd",
     "run": "a/./b/../../../c.sqlite", "structure": "\u0000nul", "docks": "!!not base64!!"}))

# Cluster workloads: the shipped examples, and hostile ones.
for name in ("two-dp-jobs.json", "pod-crossing.json", "switch-failure.json", "meta-mix-2d.json"):
    put("workload", name, (root / "resources/workloads" / name).read_bytes())
tiny_job = {"model": "llama3-8b", "parallel": {"tp": 8, "pp": 1, "dp": 1, "batchSeqs": 4}}
put("workload", "duration-and-failures.json", json.dumps(
    {"format": "clusterscope-workload", "version": 1, "scheduler": "first-fit",
     "jobs": [{"name": "a", "run": tiny_job, "durationS": 600},
              {"name": "b", "run": tiny_job, "steps": 50, "submitS": 30, "priority": 3}],
     "failures": [{"atS": 10, "part": "demo.pod0.rack0.rtsw", "repairS": 100},
                  {"atS": 0, "part": "demo.pod0.rack0.host1.be3"}]}))
put("workload", "finding-no-jobs.json", json.dumps(
    {"format": "clusterscope-workload", "version": 1, "jobs": []}))
put("workload", "finding-too-big.json", json.dumps(
    {"format": "clusterscope-workload", "version": 1,
     "jobs": [{"name": "x", "run": {"parallel": {"dp": 1000000}}, "steps": 1}]}))
put("workload", "finding-small-mix.json", json.dumps(
    {"format": "clusterscope-workload", "version": 1,
     "mix": {"jobs": 4, "sizes": [{"gpus": 8}, {"gpus": 8192}], "minDurationS": 1,
             "maxDurationS": 2}}))
