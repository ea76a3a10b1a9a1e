"""Print the Inspect Evals linter's JSON report (stdin) for people, and fail on any failure or
warning: one linter run gives both the human form and the verdict.

    inspect-evals-lint --all --output-format json | python .ci/lint_report.py
"""

from __future__ import annotations

import json
import sys

#: Statuses worth a line of their own (passes and skips are counted in the summary only).
SHOWN = ("fail", "warn", "suppressed")


def lines(report: dict) -> list[str]:
    """One line per finding that is not a pass or a skip, by package, then the totals."""
    out = [f"inspect-evals-lint {report.get('version', '?')}"]
    for package in report["packages"]:
        out.append(f"{package['name']} ({package['kind']}): {package['summary']}")
        diagnostics = package.get("diagnostics", [])
        # a rule's diagnostics say where; its outcome alone only for a rule without any
        explained = {item["code"] for item in diagnostics}
        outcomes = [o for o in package.get("outcomes", []) if o["code"] not in explained]
        for item in [*diagnostics, *outcomes]:
            if item["status"] not in SHOWN:
                continue
            where = item.get("file") or ""
            if where and item.get("line"):
                where += f":{item['line']}"
            out.append(
                f"  {item['status'].upper():10} {item['code']} {item['rule']}: {item['message']}"
                + (f" ({where})" if where else "")
            )
    out.append(f"summary: {report['summary']}")
    return out


def main() -> int:
    report = json.load(sys.stdin)
    print("\n".join(lines(report)))
    summary = report["summary"]
    if summary["fail"] or summary["warn"]:
        print(f"inspect-evals-lint: {summary['fail']} failure(s), {summary['warn']} warning(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
