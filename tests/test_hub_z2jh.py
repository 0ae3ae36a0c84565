"""hub/z2jh/config.yaml against the Zero to JupyterHub chart itself, without a cluster.

The chart's values schema and default values (chart 4.3.1) are kept in hub/z2jh/chart-4.3.1/,
copied from the chart's public repository (CI cannot fetch them). Helm merges a config over
the chart's values.yaml and validates the result against values.schema.yaml (JSON Schema,
draft 7): so does this test. Then the hub's part of the config is loaded as JupyterHub would
load it: the authenticator and the spawner's token scopes as traitlets config, the roles'
scopes by JupyterHub's own scope check, and the progress service's command by its parser.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHART = ROOT / "hub" / "z2jh" / "chart-4.3.1"


def merged(defaults: dict, given: dict) -> dict:
    """What Helm does with `-f config.yaml`: maps merged key by key, anything else replaced."""
    out = copy.deepcopy(defaults)
    for key, value in given.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


@pytest.fixture(scope="module")
def config() -> dict:
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((ROOT / "hub" / "z2jh" / "config.yaml").read_text(encoding="utf-8"))


def test_the_config_passes_the_charts_values_schema(config):
    yaml = pytest.importorskip("yaml")
    jsonschema = pytest.importorskip("jsonschema")
    schema = yaml.safe_load((CHART / "values.schema.yaml").read_text(encoding="utf-8"))
    defaults = yaml.safe_load((CHART / "values.yaml").read_text(encoding="utf-8"))
    installed = merged(defaults, config)
    installed["hub"]["config"]["ClassAuthenticator"]["class_code"] = "set-at-install"  # the --set
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(installed), key=lambda e: list(e.path))
    assert not errors, ["/".join(map(str, e.path)) + ": " + e.message for e in errors[:5]]
    # and the schema is not a pushover: a misspelt key is caught
    broken = merged(installed, {"singleuser": {"networkPolicy": {"egres": []}}})
    assert list(jsonschema.Draft7Validator(schema).iter_errors(broken))


def test_the_progress_service_is_reachable_in_a_pod(config):
    hub, singleuser = config["hub"], config["singleuser"]
    command = hub["services"]["progress"]["command"]
    assert command[command.index("--ip") + 1] == "0.0.0.0"  # not the Service IP behind `hub`
    scopes = hub["config"]["Spawner"]["server_token_scopes"]
    assert "access:services!service=progress" in scopes
    port = int(hub["services"]["progress"]["url"].rsplit(":", 1)[1])
    assert {"name": "progress", "port": port, "targetPort": port} in hub["service"]["extraPorts"]
    egress = [rule for rule in singleuser["networkPolicy"]["egress"]
              if any(p["port"] == port for p in rule["ports"])]
    assert egress and egress[0]["to"][0]["podSelector"]["matchLabels"]["component"] == "hub"
    assert f":{port}/services/progress/api/events" in singleuser["extraEnv"]["TUTORIAL_PROGRESS_URL"]


def test_jupyterhub_loads_the_hub_config(config):
    pytest.importorskip("jupyterhub")
    pytest.importorskip("firstuseauthenticator")
    from jupyterhub.scopes import _check_scopes_exist
    from jupyterhub.spawner import Spawner
    from traitlets.config import Config

    sys.path.insert(0, str(ROOT / "hub"))
    from auth import ClassAuthenticator

    hub = config["hub"]
    loaded = Config(copy.deepcopy(hub["config"]))
    loaded.ClassAuthenticator.class_code = "set-at-install"
    authenticator = ClassAuthenticator(config=loaded)
    assert authenticator.admin_users == {"instructor"} and authenticator.seats == hub["config"]["ClassAuthenticator"]["seats"]
    assert authenticator.dbm_path == "/srv/jupyterhub/passwords.dbm"
    assert Spawner(config=loaded).server_token_scopes == hub["config"]["Spawner"]["server_token_scopes"]
    for role in hub["loadRoles"].values():
        _check_scopes_exist(role["scopes"])  # raises on a scope JupyterHub does not know
    _check_scopes_exist([scope.replace("!user", "").replace("!server", "")
                         for scope in hub["config"]["Spawner"]["server_token_scopes"]])
    # the service's own parser accepts the command the chart runs
    import service

    command = hub["services"]["progress"]["command"]
    parsed = service.parser().parse_args(command[2:])
    assert parsed.ip == "0.0.0.0" and parsed.database == "/srv/jupyterhub/progress.sqlite"
