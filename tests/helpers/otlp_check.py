#!/usr/bin/env python3
"""Reads OTLP/JSON requests (one per line, or one HTTP body per file) into
the official OpenTelemetry protobuf messages, refusing any unknown field,
and prints a summary as JSON: per metric name the sum of its points, the
metric's unit and temporality, every attribute key seen; the spans with
their ids and parents. Needs the PyPI package opentelemetry-proto.

    otlp_check.py FILE...
"""
import json
import sys

from google.protobuf import json_format
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest


def main():
    out = {"metrics": {}, "spans": [], "requests": 0}
    for path in sys.argv[1:]:
        for line in open(path, encoding="utf-8"):
            line = line.strip()
            if not line:
                continue
            doc = json.loads(line)
            out["requests"] += 1
            if "resourceMetrics" in doc:
                req = json_format.Parse(line, ExportMetricsServiceRequest(), ignore_unknown_fields=False)
                for rm in req.resource_metrics:
                    for sm in rm.scope_metrics:
                        for m in sm.metrics:
                            e = out["metrics"].setdefault(m.name, {"unit": m.unit, "temporality": m.sum.aggregation_temporality,
                                                                   "monotonic": m.sum.is_monotonic, "sum": 0, "points": 0,
                                                                   "keys": [], "by_type": {}})
                            for p in m.sum.data_points:
                                v = p.as_int if p.HasField("as_int") else p.as_double
                                e["sum"] += v
                                e["points"] += 1
                                for a in p.attributes:
                                    if a.key not in e["keys"]:
                                        e["keys"].append(a.key)
                                    if a.key == "type":
                                        e["by_type"][a.value.string_value] = e["by_type"].get(a.value.string_value, 0) + v
            elif "resourceSpans" in doc:
                req = json_format.Parse(line, ExportTraceServiceRequest(), ignore_unknown_fields=False)
                for rs in req.resource_spans:
                    for ss in rs.scope_spans:
                        for s in ss.spans:
                            out["spans"].append({"trace": s.trace_id.hex(), "span": s.span_id.hex(),
                                                 "parent": s.parent_span_id.hex(), "name": s.name,
                                                 "events": len(s.events),
                                                 "attributes": {a.key: json_format.MessageToDict(a.value) for a in s.attributes}})
            else:
                raise SystemExit(f"{path}: neither metrics nor traces: {line[:80]}")
    for e in out["metrics"].values():
        e["keys"].sort()
    json.dump(out, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()
