"""mindspeed_llm stand-in (msprof-exec simulation, see sim/README.md): what the
training entries that are not in launchers.conf import."""
