"""The arena on a Dask cluster (``--cluster``): a real local cluster of two worker processes
plays the deals, with the same results as a local run of the same seeds."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import toybattle
from toybattle.bots.arena import MatchSpec, run_match
from toybattle.cli import main

SRC = str(Path(toybattle.__file__).resolve().parent.parent)


@pytest.fixture(scope="module")
def cluster():
    # Dask takes seconds to import: only the tests that use it pay, not every run that collects this file
    from distributed import LocalCluster

    # the workers are new processes: they must import the toybattle under test
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [SRC, old]))
    try:
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
            yield c
    finally:
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old


def test_a_cluster_run_gives_the_same_results_as_a_local_run(cluster):
    # bots whose moves depend on their seed alone (a search level's time cap could cut it short
    # on a loaded machine, and that would change its games, not the cluster)
    spec = MatchSpec("greedy", "random", 6, ("castle", "pool", "clouds"), seed=4)
    local = run_match(spec)
    spread = run_match(MatchSpec(**{**spec.__dict__, "cluster": cluster.scheduler_address}))
    assert [d.index for d in spread.deals] == list(range(6))
    assert [d.games for d in spread.deals] == [d.games for d in local.deals]
    assert [d.records for d in spread.deals] == [d.records for d in local.deals]


def test_the_workers_really_played(cluster):
    from distributed import Client
    with Client(cluster.scheduler_address) as client:
        pids = set(client.run(os.getpid).values())
        assert len(pids) == 2 and os.getpid() not in pids
        report = run_match(MatchSpec("greedy", "random", 8, ("castle",), seed=2, cluster=cluster.scheduler_address))
        assert len(report.deals) == 8
        # each worker built its bots for this match, so each played deals
        built = client.run(lambda: len(__import__("toybattle.bots.arena", fromlist=["_"])._cluster_bots))
        assert len(built) == 2 and all(n >= 1 for n in built.values())


def test_the_arena_command_with_cluster(cluster, capsys):
    argv = ["arena", "greedy", "random", "--games", "4", "--seed", "3", "--json"]
    assert main([*argv, "--cluster", cluster.scheduler_address]) == 0
    spread = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    local = json.loads(capsys.readouterr().out)
    assert spread["per_deal"] == local["per_deal"] and spread["forfeits"] == []


def test_an_unreachable_cluster_is_one_clear_line(capsys, monkeypatch):
    import distributed

    # nothing listens there, so the client retries until its timeout runs out: half a second instead of the
    # arena's ten reaches the same refusal without the wait
    client = distributed.Client
    monkeypatch.setattr(distributed, "Client", lambda address, timeout: client(address, timeout=min(timeout, 0.5)))
    assert main(["arena", "greedy", "random", "--games", "2", "--cluster", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "cannot reach the cluster at tcp://127.0.0.1:9" in err and "Traceback" not in err
    assert err.count("\n") == 1
