"""The core library imports without the optional frameworks."""

import subprocess
import sys


def test_import_presages_env_pulls_in_no_optional_framework():
    code = (
        "import sys, presages_env, presages_env.training, presages_env.evaluation;"
        "heavy = [m for m in ('torch', 'ray', 'stable_baselines3', 'sb3_contrib') "
        "if m in sys.modules]; print(heavy); assert not heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
