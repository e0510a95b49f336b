"""The ``manhattan`` command: a thin typer + rich front over ``positions`` and ``analyzer``."""

from __future__ import annotations

from importlib.metadata import version
from typing import Annotated

import typer

app = typer.Typer(
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    help="Analysis and coaching for the board game Manhattan.",
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"manhattan {version('manhattan')}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Analysis and coaching for the board game Manhattan."""


def main() -> None:
    """Entry point of the ``manhattan`` command."""
    app()
