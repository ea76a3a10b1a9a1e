"""The Inspect layer: one subpackage per benchmark (`sparc`, `algopuzzlevqa`), over the pure logic
in `inspect_sparc.core`. Named apart from the tasks: `from inspect_sparc import sparc` is a task."""

from __future__ import annotations


def warn_if_openai_too_old() -> None:
    """One line when the installed `openai` is older than Inspect's OpenAI providers need (the
    `train-verifiers` extra pins openai < 3): those models would fail, and with
    `display="none"` without a word."""
    import importlib.metadata
    import importlib.util
    import sys

    if importlib.util.find_spec("openai") is None:
        return
    try:
        from inspect_ai.model._providers.providers import validate_openai_client

        validate_openai_client("Inspect's OpenAI providers")
    except ImportError:
        return
    except Exception as error:  # noqa: BLE001 - Inspect's PrerequisiteError: the version
        need = str(getattr(error, "message", error)).split("requires at least version ")[-1]
        sys.stderr.write(
            f"inspect-sparc: openai {importlib.metadata.version('openai')} is installed, but "
            f"Inspect's openai/ and openai-api/ models need {need.split(' of ')[0]}: the "
            "train-verifiers extra (verifiers 0.4) pins openai<3; evaluate from an environment "
            "without it\n"
        )


warn_if_openai_too_old()
