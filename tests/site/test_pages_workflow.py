"""The GitHub Pages workflow (.github/workflows/pages.yml) publishes what `toybattle site` builds: it installs
toybattle as scripts/setup.sh does for playing (pinned by scripts/constraints.txt), builds the site with the
real `toybattle site` command into a directory, uploads that same directory as the Pages artifact and deploys
it with the permissions Pages needs. Read, not run: no network, no build (fast lane).

PyYAML is one of the test tools (pinned in pyproject.toml's test extra and scripts/constraints.txt)."""
from __future__ import annotations

import os
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from toybattle.cli import build_parser
from toybattle.site import build

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"
MAJOR = re.compile(r"^[\w.-]+/[\w.-]+@v\d+$")  # owner/action@vN: a major version, as the project pins actions


@pytest.fixture(scope="module")
def workflow() -> dict[str, Any]:
    data = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    assert isinstance(data, dict)
    return data


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    return list(job.get("steps") or [])


def action(step: dict[str, Any]) -> str:
    """The action a step uses, without its version ("" for a `run` step)."""
    return str(step.get("uses", "")).split("@")[0]


def find(job: dict[str, Any], name: str) -> tuple[int, dict[str, Any]]:
    found = [(k, s) for k, s in enumerate(steps(job)) if action(s) == name]
    assert len(found) == 1, f"one {name} step expected, found {len(found)}"
    return found[0]


def run_lines(job: dict[str, Any]) -> list[tuple[int, list[str]]]:
    """Every command line of the job's `run` steps, split as a shell would, with its step's index."""
    out = []
    for k, s in enumerate(steps(job)):
        for line in str(s.get("run", "")).splitlines():
            if line.strip() and not line.strip().startswith("#"):
                out.append((k, shlex.split(line)))
    return out


def build_job(workflow: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    jobs = workflow["jobs"]
    named = [(n, j) for n, j in jobs.items() if any(action(s) == "actions/upload-pages-artifact" for s in steps(j))]
    assert len(named) == 1, "one job uploads the Pages artifact"
    return named[0]


def site_command(job: dict[str, Any]) -> tuple[int, str]:
    """The step and output directory of the job's `toybattle site DIR`, checked against the real command line."""
    found = [(k, argv) for k, argv in run_lines(job) if argv[:2] == ["toybattle", "site"]]
    assert len(found) == 1, "the site is built by one `toybattle site DIR`"
    k, argv = found[0]
    args = build_parser("site").parse_args(argv[1:])  # the project's own parser: the command and its arguments exist
    assert args.run is build.run
    return k, args.dir


def test_it_runs_on_pushes_to_main_and_by_hand(workflow):
    on = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` key as true
    assert "workflow_dispatch" in on
    assert "main" in on["push"]["branches"]


def test_it_uploads_the_directory_that_toybattle_site_builds(workflow):
    _, job = build_job(workflow)
    built_at, out = site_command(job)
    uploaded_at, upload = find(job, "actions/upload-pages-artifact")
    assert os.path.normpath(upload["with"]["path"]) == os.path.normpath(out)
    checkout_at, _ = find(job, "actions/checkout")
    assert checkout_at < built_at < uploaded_at


def test_it_installs_toybattle_as_setup_sh_does_for_playing(workflow):
    _, job = build_job(workflow)
    installs = [(k, argv) for k, argv in run_lines(job) if "pip" in argv and "install" in argv]
    assert len(installs) == 1
    installed_at, argv = installs[0]
    # setup.sh's plain install (not --test's): the same arguments, its quiet flag aside
    setup = (ROOT / "scripts" / "setup.sh").read_text("utf-8")
    plain = [shlex.split(line) for line in setup.splitlines()
             if "pip install" in line and "[test," not in line and not line.lstrip().startswith("#")]
    assert len(plain) == 1, "setup.sh has one plain pip install"
    tail = plain[0][plain[0].index("install") + 1:]
    assert [a for a in argv[argv.index("install") + 1:] if a != "-q"] == [a for a in tail if a != "-q"]
    assert (ROOT / argv[argv.index("-c") + 1]).is_file()  # the constraints it names are in the repository
    assert installed_at < site_command(job)[0]


def test_it_builds_with_the_oldest_python_the_project_supports(workflow):
    _, job = build_job(workflow)
    _, setup = find(job, "actions/setup-python")
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["requires-python"]
    assert requires == f">={setup['with']['python-version']}"


def test_the_fetching_tools_it_needs_are_set_up(workflow):
    # the build fetches Pyodide and the noble packages with `npm pack` (assets.py)
    _, job = build_job(workflow)
    if "npm" in (ROOT / "src" / "toybattle" / "site" / "assets.py").read_text("utf-8"):
        node_at, _ = find(job, "actions/setup-node")
        assert node_at < site_command(job)[0]


def test_it_deploys_that_artifact_with_the_permissions_pages_needs(workflow):
    name, _ = build_job(workflow)
    deploys = [j for j in workflow["jobs"].values() if any(action(s) == "actions/deploy-pages" for s in steps(j))]
    assert len(deploys) == 1
    deploy = deploys[0]
    needs = deploy.get("needs")
    assert name in ([needs] if isinstance(needs, str) else needs)
    assert deploy["environment"]["name"] == "github-pages"
    _, step = find(deploy, "actions/deploy-pages")
    assert "steps." + step["id"] + ".outputs.page_url" in deploy["environment"]["url"]
    granted = {**(workflow.get("permissions") or {}), **(deploy.get("permissions") or {})}
    assert granted.get("pages") == "write" and granted.get("id-token") == "write"
    assert workflow["concurrency"]["group"] and workflow["concurrency"]["cancel-in-progress"] is False


def test_every_action_is_pinned_to_a_major_version(workflow):
    used = [s["uses"] for j in workflow["jobs"].values() for s in steps(j) if "uses" in s]
    assert used and all(MAJOR.match(u) for u in used), used


def test_the_readme_says_how_to_publish_the_site():
    readme = (ROOT / "README.md").read_text("utf-8")
    assert ".github/workflows/pages.yml" in readme and "github.io" in readme
