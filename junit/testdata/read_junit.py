"""Reads a JUnit XML file with junitparser, the library CI tools built on
Python use, and prints what it understood as JSON, for the Go tests to
check against the run. Usage: python3 read_junit.py FILE"""
import json
import sys

from junitparser import JUnitXml, TestSuite

xml = JUnitXml.fromfile(sys.argv[1])
suites = [xml] if isinstance(xml, TestSuite) else list(xml)
out = {"tag": xml._tag, "tests": xml.tests, "failures": xml.failures,
       "errors": xml.errors, "skipped": xml.skipped, "suites": []}
for suite in suites:
    s = {"name": suite.name, "tests": suite.tests, "failures": suite.failures,
         "errors": suite.errors, "skipped": suite.skipped, "time": suite.time,
         "cases": []}
    for case in suite:
        line = case._elem.get("line")
        c = {"classname": case.classname, "name": case.name, "time": case.time,
             "file": case._elem.get("file") or "", "line": int(line) if line else 0,
             "results": [{"tag": r._tag, "message": r.message or "", "type": r.type or "",
                          "text": r.text or ""} for r in case.result],
             "system_out": case.system_out or ""}
        s["cases"].append(c)
    out["suites"].append(s)
json.dump(out, sys.stdout)
