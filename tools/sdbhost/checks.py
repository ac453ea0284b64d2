"""The counterfactual checks of a run (the firmware's `check` and `checks`
records, docs/records.md): one cell per workload for the reports' tables
and a line per check."""
from . import fmt as F


def of(run, name):
    """The check records of one workload, in order."""
    return [r for r in run.all("check") if r.get("workload") == name]


def cell(run, name):
    """'confirmed', 'contradicted (clock)', 'not run', ... or '' when none
    ran for this workload."""
    recs = of(run, name)
    if not recs:
        return ""
    bad = [F.text(r.get("kind")) for r in recs if r.get("verdict") == "contradicted"]
    if bad:
        return "contradicted (%s)" % ", ".join(bad)
    if any(r.get("verdict") == "confirmed" for r in recs):
        return "confirmed"
    return "not run"


def line(r):
    """One check for people."""
    what = "%s %s" % (F.text(r.get("workload")), F.text(r.get("kind")))
    if r.get("verdict") == "not_run":
        return "check %s: not run (%s)" % (what, F.text(r.get("reason")))
    return "check %s: %s, measured %s us, predicted %s us +/- %s us" % (
        what, F.text(r.get("verdict")), F.us_from_ns(r.get("measured_ns")),
        F.us_from_ns(r.get("predicted_ns")), F.us_from_ns(r.get("tolerance_ns")))


def lines(run):
    out = [line(r) for r in run.all("check")]
    for s in run.all("checks"):
        out.append("checks: %s confirmed, %s contradicted, %s not run in %s us" % (
            F.text(s.get("confirmed")), F.text(s.get("contradicted")),
            F.text(s.get("not_run")), F.text(s.get("elapsed_us"))))
    return out
