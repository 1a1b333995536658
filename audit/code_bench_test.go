package audit

import "testing"

// benignPythonClient is an API client of the kind skills ship: it reads its
// key from the environment, calls its service and saves the result; every
// construct the code reader follows is in it, and nothing it does is a flow.
const benignPythonClient = `#!/usr/bin/env python3
"""Fetch the latest report from the service and save it as JSON."""
import argparse
import json
import os
import pathlib
import subprocess

import requests

API = "https://api.github.com"


class Client:
    def __init__(self, token=None):
        self.token = token or os.environ.get("GITHUB_TOKEN", "")
        self.session = requests.Session()
        self.session.headers.update({"Authorization": f"Bearer {self.token}"})

    def get(self, path, **params):
        r = self.session.get(f"{API}/{path.lstrip('/')}", params=params, timeout=30)
        r.raise_for_status()
        return r.json()


def save(rows, out):
    out = pathlib.Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, indent=2))
    subprocess.run(["git", "add", str(out)], check=False)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repo", default="octo/demo")
    p.add_argument("--out", default="reports/issues.json")
    a = p.parse_args()
    rows = [{"n": i["number"], "t": i["title"]} for i in Client().get(f"repos/{a.repo}/issues", state="open")]
    save(rows, a.out)
    print(f"{len(rows)} issues saved to {a.out}")


if __name__ == "__main__":
    main()
`

// BenchmarkScanCode scans the generated skills of BenchmarkScan, each with a
// Python client added, so that the code reader's share shows beside
// BenchmarkScan and BenchmarkScanShell (run with CGO_ENABLED=0 for the same
// scan without it).
func BenchmarkScanCode(b *testing.B) {
	benchScanWith(b, "scripts/report.py", benignPythonClient, func(f Finding) bool { return f.Severity >= High })
}
