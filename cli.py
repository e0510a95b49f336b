"""The ``manhattan`` command: a thin typer + rich front over ``positions`` and ``analyzer``.

Each command parses its options, calls one library function and prints.  Bad input of
any kind (``ManhattanError``, or an ``OSError`` for a file) is caught here, at the
boundary, and ends as one red line on stderr with exit code 1.  Heavy modules (numba,
joblib, the search, the analyzer, networkx, even rich's tables) are imported inside the
commands that need them, so ``moves``, ``apply`` and ``show`` start fast.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import version
from pathlib import Path
from typing import Annotated, Any

import typer

from positions.errors import ManhattanError

app = typer.Typer(
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    help="Analysis and coaching for the board game Manhattan.",
)

# A position string may begin with '-' after an edit; such a word is the argument, not an
# unknown option.
_POSITION_COMMAND = {"ignore_unknown_options": True}

PositionArg = Annotated[
    str,
    typer.Argument(
        help="A position string (quoted), or a file: [bold].mgn[/] (its final position), "
        "[bold].mpz[/] (the puzzle's Setup) or a text file whose first line is a position.",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
ForceOption = Annotated[bool, typer.Option("--force", help="Overwrite existing output files.")]
PlayersOption = Annotated[
    int, typer.Option("--players", "-n", min=2, max=4, help="Number of players (2-4).")
]
BotsOption = Annotated[
    str | None,
    typer.Option(
        "--bots",
        help="Bot specs per seat, comma-separated (one spec: every seat; default greedy): "
        "[bold]random[/], [bold]greedy[/], [bold]heuristic[/], [bold]mcts:<budget>[/], "
        "[bold]cmd:<command>[/].",
        show_default=False,
    ),
]
BotOption = Annotated[
    list[str] | None,
    typer.Option(
        "--bot",
        help="One bot spec for the next seat (repeat per seat); use it for "
        "[bold]cmd:[/] command lines holding commas.",
        show_default=False,
    ),
]
RuleOptionsOption = Annotated[
    list[str] | None,
    typer.Option("--option", help="A rule option [bold]name=value[/] (repeatable)."),
]
BotTimeoutOption = Annotated[
    float,
    typer.Option("--bot-timeout", min=0.1, help="Seconds a [bold]cmd:[/] bot gets per move."),
]


# ----- errors --------------------------------------------------------------------------


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _error_message(error: BaseException) -> str:
    if isinstance(error, OSError) and error.filename is not None:
        reason = error.strerror or "cannot use the file"
        return f"{reason[0].lower()}{reason[1:]}: {error.filename}"
    return str(error) or type(error).__name__


@contextmanager
def _user_errors() -> Iterator[None]:
    """Turn the domain's errors (and file errors) into one red line and exit code 1."""
    try:
        yield
    except (ManhattanError, OSError, UnicodeError) as error:
        typer.secho(f"error: {_one_line(_error_message(error))}", fg=typer.colors.RED, err=True)
        raise typer.Exit(1) from None


def _err_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def _out_console() -> Any:
    from rich.console import Console

    return Console(highlight=False)


def _print_json(data: Any) -> None:
    typer.echo(json.dumps(data))


# ----- root ----------------------------------------------------------------------------


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


# ----- show / moves / apply --------------------------------------------------------------


@app.command(context_settings=_POSITION_COMMAND)
def show(position: PositionArg, as_json: JsonOption = False) -> None:
    """Draw a position: the six cities, scores, supplies, selections, hands and deck.

    The cities are drawn as seen from seat S; each building shows its height and its
    owner's color.  Also shown: the visible hands, the played pile and the deck count.

    [bold]--json[/] gives every field, the board per city and site, and
    [bold]round_score[/]: what each color would score if the round were scored now.
    """
    from positions.loading import describe_position, load_position

    with _user_errors():
        state = load_position(position)
        data = describe_position(state)
    if as_json:
        _print_json(data)
        return
    from render.terminal import position_view

    _out_console().print(position_view(data))


@app.command(context_settings=_POSITION_COMMAND)
def moves(position: PositionArg, as_json: JsonOption = False) -> None:
    """List every legal move of the player to move, in canonical notation, sorted.

    In the placement phase the mover's hand must be shown (no [bold]?[/]).
    """
    from positions.loading import load_position

    with _user_errors():
        state = load_position(position)
        legal = [str(move) for move in state.legal_moves()]
    if as_json:
        _print_json(legal)
    elif legal:
        typer.echo("\n".join(legal))


@app.command(context_settings=_POSITION_COMMAND)
def apply(
    position: PositionArg,
    move_tokens: Annotated[
        list[str],
        typer.Argument(
            metavar="move",
            help="Moves in canonical notation ([bold]=112234[/], [bold]7@3:4[/], "
            "[bold]7@-:1[/]; 2p: [bold]=1123/1234[/], [bold]7@3:4c[/]).  A token "
            "[bold]+2[/] after a placement names the card drawn; an unnamed draw becomes "
            "[bold]?[/].  Marks such as [bold]!?[/] are ignored.",
            show_default=False,
        ),
    ],
    as_json: JsonOption = False,
) -> None:
    """Play moves from a position and print the resulting position string."""
    from positions.loading import apply_move_tokens, load_position
    from positions.notation import write_position

    with _user_errors():
        state = apply_move_tokens(load_position(position), move_tokens)
        result = write_position(state)
    if as_json:
        _print_json({"position": result})
    else:
        typer.echo(result)


# ----- play ----------------------------------------------------------------------------


def _bot_specs(players: int, bots: str | None, bot: list[str] | None) -> list[str]:
    """One bot spec per seat from ``--bots a,b,c`` or repeated ``--bot SPEC``."""
    if bots is not None and bot:
        raise ManhattanError("give the bots with --bots or with --bot, not both")
    if bot:
        specs = list(bot)
    elif bots is not None:
        specs = [spec.strip() for spec in bots.split(",")]
    else:
        specs = ["greedy"]
    if any(not spec for spec in specs):
        raise ManhattanError(f"--bots {bots!r}: empty bot spec")
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ManhattanError(
            f"{len(specs)} bots for {players} players: give one bot per seat, or one for all"
        )
    return specs


def _check_out_file(out: Path, force: bool) -> None:
    """Refuse to overwrite ``out`` without ``force``; check its folder exists."""
    if out.is_dir():
        raise IsADirectoryError(21, "is a directory", str(out))
    if out.exists() and not force:
        raise ManhattanError(f"file exists: {out} (pass --force to overwrite it)")
    parent = out.parent
    if not parent.is_dir():
        raise FileNotFoundError(2, "folder not found", str(parent))


@app.command()
def play(
    players: PlayersOption = 4,
    bots: BotsOption = None,
    bot: BotOption = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", min=0, help="Random seed (default: a fresh one, reported)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Write the game record here (default: stdout).", dir_okay=False
        ),
    ] = None,
    option: RuleOptionsOption = None,
    bot_timeout: BotTimeoutOption = 30.0,
    force: ForceOption = False,
    as_json: JsonOption = False,
) -> None:
    """Play a whole game between bots and write its record.

    The record holds the Deal, every draw and the Result, so it replays to the same
    result.  Without [bold]--out[/] the record is printed.
    """
    with _user_errors():
        from positions.options import parse_options

        specs = _bot_specs(players, bots, bot)
        rules = parse_options(option or [], players)
        if out is not None:
            _check_out_file(out, force)
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "little") >> 1

        from analyzer.players import check_bot_spec, make_bot
        from positions.record import write_record
        from positions.selfplay import play_game

        for spec in specs:
            check_bot_spec(spec)
        seats = []
        try:
            for spec in specs:
                seats.append(make_bot(spec, bot_timeout=bot_timeout))
        except BaseException:
            for made in seats:
                made.close()
            raise
        outcome = play_game(seats, players, seed, options=rules)
        text = write_record(outcome.record)
        if out is not None:
            out.write_text(text, encoding="utf-8")
    summary = _game_summary(outcome, specs, seed, out)
    if as_json:
        if out is None:
            summary["record"] = text
        _print_json(summary)
    elif out is None:
        typer.echo(text, nl=not text.endswith("\n"))
    else:
        from render.terminal import game_summary_view

        _out_console().print(game_summary_view(summary))


def _game_summary(outcome: Any, specs: list[str], seed: int, out: Path | None) -> dict[str, Any]:
    """The result of a played game as JSON-ready data."""
    record = outcome.record
    return {
        "players": len(specs),
        "seed": seed,
        "bots": specs,
        "names": [record.tags.get(f"P{p}", "") for p in range(1, len(specs) + 1)],
        "totals": list(outcome.totals),
        "places": list(outcome.places),
        "forfeits": [
            {"player": seat + 1, "reason": str(reason)}
            for seat, reason in sorted(outcome.forfeits.items())
        ],
        "out": None if out is None else str(out),
    }


# ----- analyze / review / solve / match ---------------------------------------------------

WorkersOption = Annotated[
    int | None,
    typer.Option("--workers", min=1, help="Parallel searchers (default: one per core, up to 2)."),
]
SeedOption = Annotated[int, typer.Option("--seed", min=0, help="Random seed of the search.")]
BackendOption = Annotated[
    str,
    typer.Option(
        "--backend", help="Where searchers run: [bold]loky[/] (this machine) or [bold]dask[/]."
    ),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler", help="Dask scheduler address (with --backend dask).", show_default=False
    ),
]


def _analysis_target(position: str | None, move: int | None) -> Any:
    """The state ``analyze`` looks at: a position, or a record's position before its
    ``move``-th decision (default: the last position with a decision to make)."""
    from positions.bundled import default_example
    from positions.loading import load_position
    from positions.record import load_record

    arg = str(default_example()) if position is None else position
    if arg.strip().lower().endswith(".mgn") and Path(arg).is_file():
        record = load_record(arg)
        states = record.states()
        if move is None:
            return states[-1] if not states[-1].is_terminal() or len(states) == 1 else states[-2]
        if not 1 <= move <= len(record.moves):
            raise ManhattanError(
                f"--move {move}: expected 1-{len(record.moves)}, "
                f"the number of decisions in the record"
            )
        return states[move - 1]
    if move is not None:
        raise ManhattanError("--move applies to game records (.mgn) only")
    return load_position(arg)


@app.command(context_settings=_POSITION_COMMAND)
def analyze(
    position: Annotated[
        str | None,
        typer.Argument(
            help="A position string, a position/puzzle file or a game record (.mgn). "
            "Default: a bundled example.",
            show_default=False,
        ),
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option("--time", min=0.01, help="Seconds to search (default 5 unless --iterations)."),
    ] = None,
    iterations: Annotated[
        int | None, typer.Option("--iterations", min=1, help="Iterations to search (repeatable).")
    ] = None,
    workers: WorkersOption = None,
    top: Annotated[int, typer.Option("--top", min=1, help="Candidates shown in the table.")] = 8,
    seed: SeedOption = 0,
    move: Annotated[
        int | None,
        typer.Option(
            "--move", min=1, help="With a record: the position before decision N (from 1)."
        ),
    ] = None,
    tree: Annotated[
        Path | None,
        typer.Option(
            "--tree", help="Export the top of the search tree (.graphml or .dot).", dir_okay=False
        ),
    ] = None,
    backend: BackendOption = "loky",
    scheduler: SchedulerOption = None,
    force: ForceOption = False,
    as_json: JsonOption = False,
) -> None:
    """Recommend a move for the player to move, from that player's information only.

    Shows the top candidates (visits, win %, expected final score, margin over the best
    opponent, a reason), the expected line, and in the selection phase the whole
    selection for the round.  With [bold]--iterations[/] and [bold]--seed[/] the result
    is repeatable; a time budget depends on the machine.
    """
    with _user_errors():
        from analyzer.engine import DEFAULT_SECONDS, EngineSettings, default_workers, mover_view
        from analyzer.engine import analyze as run_analysis
        from search.limits import Limit

        state = _analysis_target(position, move)
        view = mover_view(state)
        if tree is not None:
            _check_out_file(tree, force)
        if seconds is None and iterations is None:
            seconds = DEFAULT_SECONDS
        settings = EngineSettings(
            limit=Limit(iterations, seconds),
            workers=workers or default_workers(),
            seed=seed,
            backend=backend,
            scheduler=scheduler,
        )
        settings.parallelism()
        with _search_progress(seconds, as_json) as progress:
            analysis = run_analysis(view, settings, progress)
        if tree is not None:
            from analyzer.tree_export import tree_graph, write_tree

            write_tree(tree_graph(view, analysis.search.summary), tree, force=True)
    if as_json:
        _print_json(analysis.to_json())
        return
    from analyzer.report import analysis_view

    _out_console().print(analysis_view(analysis, top))


@contextmanager
def _search_progress(seconds: float | None, quiet: bool) -> Iterator[Any]:
    """A live display on stderr while a search runs; yields the progress callback."""
    if quiet:
        yield None
        return
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    columns = [SpinnerColumn(), TextColumn("searching"), BarColumn(), TimeElapsedColumn()]
    with Progress(*columns, console=_err_console(), transient=True) as bar:
        task = bar.add_task("search", total=seconds)

        def update(elapsed: float) -> None:
            bar.update(task, completed=elapsed if seconds else None)

        yield update


@app.command()
def review(
    game: Annotated[Path, typer.Argument(help="A game record (.mgn).", show_default=False)],
    time_per_move: Annotated[
        float, typer.Option("--time-per-move", min=0.01, help="Seconds of search per decision.")
    ] = 0.5,
    iterations_per_move: Annotated[
        int | None,
        typer.Option("--iterations-per-move", min=1, help="Iterations per decision (repeatable)."),
    ] = None,
    workers: WorkersOption = None,
    seed: SeedOption = 0,
    marks: Annotated[
        str,
        typer.Option("--marks", help="Win-% drops for ?!, ? and ?? (comma-separated)."),
    ] = "5,10,15",
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Write the annotated record here (.mgn).", dir_okay=False),
    ] = None,
    backend: BackendOption = "loky",
    scheduler: SchedulerOption = None,
    force: ForceOption = False,
    as_json: JsonOption = False,
) -> None:
    """Review every decision of a game from each player's own information.

    For each decision: the engine's choice, the loss in win % and in expected points,
    and a mark ([bold]?![/], [bold]?[/], [bold]??[/]); per player: accuracy, mark counts,
    the biggest mistakes and a win-% timeline.  Ctrl-C stops early and keeps what is done.
    """
    with _user_errors():
        from analyzer.engine import default_workers
        from analyzer.review import ReviewSettings, annotate, review_game
        from positions.record import load_record, write_record
        record = load_record(game)
        if out is not None:
            _check_out_file(out, force)
        settings = ReviewSettings(
            seconds_per_move=time_per_move,
            iterations_per_move=iterations_per_move,
            workers=workers or default_workers(),
            seed=seed,
            backend=backend,
            scheduler=scheduler,
            thresholds=_parse_marks(marks),
        )
        settings.parallelism()
        with _decision_progress(len(record.moves), as_json) as progress:
            result = review_game(record, settings, progress)
        if out is not None:
            out.write_text(write_record(annotate(record, result)), encoding="utf-8")
    if as_json:
        _print_json(result.to_json())
        return
    from analyzer.report import review_view

    _out_console().print(review_view(result))


def _parse_marks(text: str) -> tuple[float, float, float]:
    parts = text.split(",")
    try:
        values = tuple(float(part) for part in parts)
    except ValueError:
        values = ()
    if len(values) != 3:
        raise ManhattanError(f"--marks {text!r}: expected three numbers like 5,10,15")
    return values  # type: ignore[return-value]


@contextmanager
def _decision_progress(total: int, quiet: bool) -> Iterator[Any]:
    """A progress bar over decisions (or games) on stderr; yields the callback."""
    if quiet:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = [BarColumn(), MofNCompleteColumn(), TimeRemainingColumn()]
    with Progress(*columns, console=_err_console(), transient=True) as bar:
        task = bar.add_task("review", total=total)

        def update(done: int, _total: int | None = None) -> None:
            bar.update(task, completed=done)

        yield update


@app.command()
def solve(
    target: Annotated[
        str,
        typer.Argument(
            help="A puzzle (.mpz), a folder of puzzles, or a position.", show_default=False
        ),
    ],
    goal: Annotated[
        str | None,
        typer.Option("--goal", help="win or round-points (default: the puzzle's Goal, else win)."),
    ] = None,
    node_budget: Annotated[
        int | None,
        typer.Option("--node-budget", min=1000, help="Nodes before giving up the proof."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Solve a puzzle: prove every move that meets its goal.

    The exact search covers every reply of every opponent and every possible draw.
    When the position is too big to prove it falls back to MCTS and says so.
    A folder: every puzzle's verdict, solved/total and the time.
    """
    with _user_errors():
        from analyzer import solve as solver

        budget = node_budget or solver.DEFAULT_NODE_BUDGET
        if Path(target).is_dir():
            checks = solver.solve_directory(target, budget)
            if as_json:
                _print_json(
                    {"puzzles": [c.to_json() for c in checks], **solver.directory_summary(checks)}
                )
                return
            from analyzer.report import directory_view

            _out_console().print(directory_view(checks))
            return
        if target.strip().lower().endswith(".mpz") or (
            Path(target).is_file() and Path(target).suffix == ".mpz"
        ):
            from positions.puzzle import load_puzzle

            puzzle = load_puzzle(target)
            state, goal = puzzle.state, goal or puzzle.goal
        else:
            from positions.loading import load_position

            state, goal = load_position(target), goal or "win"
        result = solver.solve(state, goal, node_budget=budget)
    if as_json:
        _print_json(result.to_json())
        return
    from analyzer.report import solve_view

    _out_console().print(solve_view(result))


@app.command()
def match(
    players: PlayersOption = 4,
    bots: BotsOption = None,
    bot: BotOption = None,
    games: Annotated[int, typer.Option("--games", min=1, help="Games to play.")] = 10,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="Games played side by side.")
    ] = 1,
    seed: SeedOption = 0,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Folder for the records (game_0001.mgn, …).", file_okay=False
        ),
    ] = None,
    option: RuleOptionsOption = None,
    bot_timeout: BotTimeoutOption = 30.0,
    force: ForceOption = False,
    as_json: JsonOption = False,
) -> None:
    """Play many games between bots, seats rotated, and report win rates.

    Win rates come with 95% confidence intervals (Wilson); a shared first counts 1/k.
    Every record is saved with [bold]--out[/].
    """
    with _user_errors():
        from analyzer.match import run_match
        from positions.options import parse_options

        specs = _bot_specs(players, bots, bot)
        rules = parse_options(option or [], players)
        with _decision_progress(games, as_json) as progress:
            result = run_match(
                specs,
                players,
                games,
                workers,
                seed,
                out,
                rules,
                progress,
                force=force,
                bot_timeout=bot_timeout,
            )
    data = result.to_json()
    if as_json:
        _print_json(data)
        return
    from analyzer.report import match_view

    console = _out_console()
    console.print(match_view(data))
    for game, seat, spec, reason in result.forfeit_reasons():
        console.print(f"game {game}: P{seat} ({spec}) forfeited: {reason}")


# ----- entry point -----------------------------------------------------------------------


def _usage_error_line(error: Exception) -> str | None:
    """One line for click's usage errors (a bad option, value or command), else ``None``.
    Typer vendors its own click, so they are recognized by shape: exit code 2 and a
    ``format_message``."""
    if getattr(error, "exit_code", None) != 2 or not hasattr(error, "format_message"):
        return None
    context = getattr(error, "ctx", None)
    where = context.command_path if context is not None else "manhattan"
    return f"error: {where}: {_one_line(error.format_message())}"


def main() -> None:
    """Entry point of the ``manhattan`` command.

    A bad option, value or command ends as one line naming the command and exit code 1,
    like every other bad input; ``manhattan`` alone prints the help.  An unexpected
    exception (a bug, not bad input) also ends as one line on stderr and exit code 1; set
    ``MANHATTAN_DEBUG=1`` to see the traceback.
    """
    try:
        code = app(standalone_mode=False)
    except Exception as error:  # noqa: BLE001 - the last line of defence against tracebacks
        if type(error).__name__ == "NoArgsIsHelpError":
            typer.echo(error.ctx.get_help())  # type: ignore[attr-defined]
            sys.exit(0)
        if type(error).__name__ == "Abort":  # Ctrl-C outside a search
            typer.secho("error: interrupted", fg=typer.colors.RED, err=True)
            sys.exit(1)
        line = _usage_error_line(error)
        if line is None:
            if os.environ.get("MANHATTAN_DEBUG"):
                raise
            line = f"internal error (please report it): {type(error).__name__}: {error}"
        typer.secho(_one_line(line), fg=typer.colors.RED, err=True)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
