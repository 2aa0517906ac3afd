#!/usr/bin/env python3
"""Every kernel Kernelscope ships, run through its checked variant on a GPU (docs/hardening.md).

For each project under projects/ (the teaching ones included) and the test projects that render
views (tests/projects/soak, tests/projects/views_*), and for each of its kernel stages, the app's
checked re-run (the "find the fault" variant: every access through a pointer parameter or a surface
bounds-checked against the resource the project binds to it) runs the stage at frame 0 and at
frame 2 and reports the first refused access. The teaching panels' variants of the stage ("who
wrote it" and the block timeline) run checked too, at frame 2: the user's accesses and the
variant's own records and counters bounds-checked (--checked-variant who|timeline). Zero findings
is the only passing result; a stage that runs only once ("when": "once") is checked at frame 0
alone, and "who wrote it" is not applicable to a kernel with no output bound to a resource.

    .ci/checked-kernels.py APP OUT_DIR        (APP: the kernelscope binary; KS_SOURCE_DIR: the tree)

Prints one line per stage and frame and a summary; exit 0 when every check ran and found nothing.
"""
import glob
import json
import os
import subprocess
import sys


def projects(root):
    found = sorted(glob.glob(os.path.join(root, "projects", "*.json")))
    found += sorted(glob.glob(os.path.join(root, "projects", "teaching", "*.json")))
    found += [os.path.join(root, "tests", "projects", "soak", "soak.json")]
    found += sorted(glob.glob(os.path.join(root, "tests", "projects", "views_*.json")))
    return found


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    app, out = sys.argv[1], sys.argv[2]
    root = os.environ.get("KS_SOURCE_DIR", os.getcwd())
    os.makedirs(out, exist_ok=True)
    clean = findings = not_run = not_applicable = 0
    for project in projects(root):
        with open(project) as f:
            stages = [s for s in json.load(f).get("stages", []) if s.get("kind") == "kernel"]
        for stage in stages:
            once = stage.get("when") == "once"
            runs = [("checked", 0)] if once else [("checked", 0), ("checked", 2)]
            runs += [("who", runs[-1][1]), ("timeline", runs[-1][1])]
            for variant, frame in runs:
                name = os.path.splitext(os.path.relpath(project, root))[0].replace("/", "_")
                report = os.path.join(out, "%s-%s-%s-%d.json" % (name, stage["name"].replace("/", "_").replace(" ", "_"),
                                                                  variant, frame))
                cmd = [app, "--headless", "--data-dir", root, "--project", project, "--size", "640x360",
                       "--checked-frame", str(frame), "--checked-stage", stage["name"], "--checked-report", report,
                       "--checked-variant", variant]
                try:
                    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
                    code, text = run.returncode, run.stdout + run.stderr
                except subprocess.TimeoutExpired:
                    code, text = -1, "(did not end within 120 s)"
                what = "%s, stage \"%s\", %s, frame %d" % (os.path.relpath(project, root), stage["name"], variant, frame)
                try:
                    with open(report) as f:
                        r = json.load(f)
                except (OSError, ValueError) as e:
                    not_run += 1
                    print("NOT RUN  %s: exit %d, no report (%s)\n%s" % (what, code, e, text.strip()[-2000:]))
                    continue
                if not r.get("applicable", True):
                    not_applicable += 1
                    print("n/a      %s: %s" % (what, r.get("error")))
                elif not r.get("ran"):
                    not_run += 1
                    print("NOT RUN  %s: %s" % (what, r.get("error")))
                elif r.get("found") or r.get("faulted"):
                    findings += 1
                    print("FOUND    %s: %s" % (what, r.get("sentence")))
                else:
                    clean += 1
                    print("clean    %s: %s" % (what, r.get("sentence")))
    print("checked kernels: %d clean, %d findings, %d not run, %d not applicable" %
          (clean, findings, not_run, not_applicable))
    return 0 if findings == 0 and not_run == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
